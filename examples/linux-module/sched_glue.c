// SPDX-License-Identifier: GPL-2.0
/*
 * schedcore_port: a Linux module whose work-item dispatcher is a schedcore run queue.
 *
 * What it does: at load, runs the ports' shared self-test (the same checksum the Cortex-M3,
 * RISC-V and host builds print) and a small work-item dispatcher that hands out CPU quanta to
 * three work items of different nice values through the fair policy, then prints one line:
 *   schedcore_port: selftest fair: sum=0x... ok dispatch=... order=...
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
	static struct schedcore_port_result r; /* static: keeps 100 bytes off the init stack */
	int rc = schedcore_port_selftest(&r);

	pr_info("schedcore_port: selftest fair: sum=0x%016llx %s dispatch=%u order=%s rc=%d\n",
		r.sum, r.failures == 0 ? "ok" : "FAILED", r.dispatches, r.order, rc);
	return rc;
}

static void __exit schedcore_port_exit(void)
{
	pr_info("schedcore_port: unloaded\n");
}

module_init(schedcore_port_init);
module_exit(schedcore_port_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("schedcore port: fair run queue work-item dispatcher and self-test");
