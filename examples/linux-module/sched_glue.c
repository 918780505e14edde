// SPDX-License-Identifier: GPL-2.0
/*
 * schedcore_port: a Linux module whose work-item dispatcher is a schedcore run queue.
 *
 * What it does: at load, runs the ports' shared self-test (the same checksum the Cortex-M3,
 * RISC-V and host builds print for the same configuration) and a small work-item dispatcher
 * that hands out CPU quanta to work items through schedcore's eevdf_policy and sd_policy,
 * then prints one line:
 *   schedcore_port: selftest <fixed|fair|stride|mlfq>: sum=0x... ok eevdf=a/b/c order=... sd=d/e/f of n ...
 * What it demonstrates: a C++17 object built from schedcore with the kernel's own flags (no
 * exceptions, no RTTI, no static constructors, no heap) links into a module and runs.
 * Where it behaves badly: the dispatcher runs synchronously in module_init on one CPU; it is a
 * demonstration, not a replacement for workqueues. The kernel is tainted (out-of-tree, unsigned).
 */
#include <linux/bug.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "sched_cxx.h"

void schedcore_port_warn(const char *expr, const char *file, int line)
{
	WARN(1, "schedcore_port: check failed: %s at %s:%d\n", expr, file, line);
}

static int __init schedcore_port_init(void)
{
	static struct schedcore_port_result r; /* static: keeps ~130 bytes off the init stack */
	int rc = schedcore_port_selftest(&r);

	pr_info("schedcore_port: %s0x%016llx %s eevdf=%u/%u/%u order=%s sd=%u/%u/%u of %u %s rc=%d\n",
		r.selftest_prefix, r.sum, r.failures == 0 ? "ok" : "FAILED", r.quanta[0], r.quanta[1],
		r.quanta[2], r.order, r.sd_quanta[0], r.sd_quanta[1], r.sd_quanta[2], r.sd_dispatches,
		r.order_ok ? "as-expected" : "UNEXPECTED", rc);
	return rc;
}

static void __exit schedcore_port_exit(void)
{
	pr_info("schedcore_port: unloaded\n");
}

module_init(schedcore_port_init);
module_exit(schedcore_port_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("schedcore port: a work-item dispatcher on a schedcore policy, and the ports' self-test");
