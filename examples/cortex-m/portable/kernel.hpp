// The portable half of a tiny preemptive kernel, shared by the Cortex-M3 and RISC-V ports.
//
// What it does: owns the task table, the tick count, sleeping and waking, mutexes (priority
// inheritance or no protocol, handed to the first waiter at the unlock), the system calls and
// the choice of the next task (through port::run_queue, sched.hpp: a schedcore policy). An
// architecture port supplies only the machine parts (arch_* below): a periodic tick interrupt
// that calls kernel_tick(), a trap for system calls that calls kernel_syscall(), and a context
// switch that hands the interrupted stack pointer to kernel_switch() and resumes the one it
// returns.
// What it demonstrates: that a schedcore policy drives a real preemptive kernel whose
// schedule is a pure function of the tick count. Tasks only ever act (print, sleep, yield,
// lock, unlock, exit) immediately after being charged a tick or being dispatched, so every
// decision happens at a known tick; the port runs qemu with -icount so that even a stalled host cannot move a tick
// into the few instructions between "burn finished" and the next system call.
// Where it behaves badly: one CPU only, mutex wait queues are a scan of the task table
// (O(tasks)) and there is no priority ceiling protocol, no stack overflow detection
// beyond a canary check at the end, and a task that computes without calling burn() is
// charged ticks in a way that depends on wall time (do not do that in a deterministic test).
#ifndef SCHEDCORE_PORT_KERNEL_HPP
#define SCHEDCORE_PORT_KERNEL_HPP

#include "sched.hpp"

namespace port {

using schedcore::uptr;

/// System call numbers (first trap argument).
/// `lock` / `unlock` take a mutex index and return 0, or 1 when refused (deadlock, not the
/// owner, unknown mutex).
enum class sys : u32 { print = 1, sleep = 2, yield = 3, exit = 4, lock = 5, unlock = 6 };

// ---- supplied by the architecture port -------------------------------------------------------
/// Writes a NUL-terminated string to the console (semihosting or UART), synchronously.
void arch_puts(const char* s) noexcept;
/// Ends the emulation with `status` as qemu's exit status.
[[noreturn]] void arch_exit(int status) noexcept;
/// Traps into kernel_syscall() from a task (thread/user context); returns its result.
uptr arch_syscall(sys op, uptr arg) noexcept;
/// Builds the initial frame on a fresh stack so that the first switch to it calls
/// `entry(arg)` in task context; returns the stack pointer to hand to the switch code.
void* arch_init_stack(void* stack_top, void (*entry)(uptr), uptr arg) noexcept;
/// Starts the periodic tick (1 kHz) and the clock of arch_clock_us(), and enables interrupts.
void arch_start_tick() noexcept;
/// Asks for a context switch as soon as the current trap or interrupt returns.
void arch_request_switch() noexcept;
/// Waits for an interrupt (wfi).
void arch_wait_for_interrupt() noexcept;
/// True when no tick, system call or switch can interrupt the caller. The kernel's entry points
/// below share the run queue without a lock and rely on it; each checks it at entry and the
/// summary fails the run if it ever was false. Cortex-M: PRIMASK set, or the active exception's
/// priority at least as high as SVC's, PendSV's and SysTick's (so none of them can preempt it);
/// RISC-V: mstatus.MIE clear (a trap clears it).
bool arch_kernel_entries_masked() noexcept;
/// Microseconds since arch_start_tick() on a clock other than the tick's own interrupt (Cortex-M:
/// a CMSDK APB timer; RISC-V: CLINT mtime read directly), so that the summary can check that a
/// tick really is 1 ms. Needs to be right over the demo's length only (well under a minute).
u32 arch_clock_us() noexcept;
/// Spins until `*charged - target` is no longer negative (wrap-safe), with a value derived from
/// `seed` in every general register the context switch must preserve, and checks them at the
/// end. False when one changed: a preemption in the spin lost part of the task's context.
bool arch_burn(const volatile u32* charged, u32 target, u32 seed) noexcept;

// ---- called by the architecture port --------------------------------------------------------
/// Tick interrupt body (interrupts off). True: a switch is needed.
bool kernel_tick() noexcept;
/// System call body (interrupts off). Sets `*resched` when a switch is needed.
uptr kernel_syscall(sys op, uptr arg, bool* resched) noexcept;
/// Context switch body: saves `sp` as the current task's and returns the next task's.
void* kernel_switch(void* sp) noexcept;
/// Boot: the calling context becomes the idle task; creates the tasks, starts the tick, idles
/// until every task has exited, prints the summary and exits with the self-check status.
[[noreturn]] void kernel_main(const char* arch_name) noexcept;

}  // namespace port

#endif
