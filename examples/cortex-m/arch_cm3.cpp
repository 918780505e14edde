// Cortex-M3 port of the schedcore demo kernel (examples/cortex-m/portable/kernel.hpp).
//
// What it does: boots on qemu's mps2-an385 board, runs four tasks under a schedcore run queue
// with a 1 kHz SysTick, switches context in PendSV, takes system calls through SVC, prints over
// semihosting and leaves qemu with SYS_EXIT_EXTENDED carrying the kernel's self-check status.
// What it demonstrates: the classic Cortex-M preemption scheme: SysTick and SVC run at one
// priority and only decide; PendSV runs at the lowest priority and does the switch, so a switch
// never nests inside another handler. The hardware stacks r0-r3, r12, lr, pc, xpsr on the
// process stack (PSP); PendSV stacks r4-r11 next to them and swaps PSP.
// Where it behaves badly: no FPU context (built without -mfloat-abi=hard; an M4F port must
// save s16-s31 and honour EXC_RETURN bit 4), no MPU stack guards, semihosting output stalls the
// CPU (fine under qemu, fatal on a board without a debugger attached).
#include "portable/kernel.hpp"

using port::uptr;
using port::u32;

extern "C" {
extern u32 _estack, _sidata, _sdata, _edata, _sbss, _ebss;
void Reset_Handler() noexcept;
void SVC_Handler() noexcept;
void PendSV_Handler() noexcept;
void SysTick_Handler() noexcept;
void Fault_Handler() noexcept;
void cm3_main() noexcept;
void* cm3_svc(u32* frame) noexcept;
u32 cm3_burn(const volatile u32* charged, u32 target, u32 seed) noexcept;
// The compiler may emit calls to these for struct copies and zero-initialisation.
void* memset(void* d, int c, __SIZE_TYPE__ n) noexcept;
void* memcpy(void* d, const void* s, __SIZE_TYPE__ n) noexcept;
}

namespace {

// System control block registers (ARMv7-M ARM, B3.2).
volatile u32& reg(u32 addr) noexcept { return *reinterpret_cast<volatile u32*>(addr); }
constexpr u32 ICSR = 0xE000ED04, SHPR1 = 0xE000ED18, SHPR2 = 0xE000ED1C, SHPR3 = 0xE000ED20;
constexpr u32 SYST_CSR = 0xE000E010, SYST_RVR = 0xE000E014, SYST_CVR = 0xE000E018;
constexpr u32 cpu_hz = 25000000;  // mps2-an385 system clock (SysTick uses the core clock)
// CMSDK APB TIMER0 (mps2-an385 memory map; Cortex-M System Design Kit TRM, ARM DDI 0479), on the
// 25 MHz APB clock: a 32-bit down-counter that reloads from RELOAD at zero. arch_clock_us() reads it.
constexpr u32 TIMER0_CTRL = 0x40000000, TIMER0_VALUE = 0x40000004, TIMER0_RELOAD = 0x40000008;
constexpr u32 apb_hz = 25000000;

// The configured priority of system exception `n` (4..15): SHPR1-3 hold one byte per exception.
u32 exception_priority(u32 n) noexcept { return (reg(SHPR1 + (n - 4) / 4 * 4) >> ((n % 4) * 8)) & 0xFFu; }

// Semihosting: bkpt 0xAB with r0 = operation, r1 = argument.
uptr semihost(u32 op, const void* arg) noexcept {
  register u32 r0 asm("r0") = op;
  register const void* r1 asm("r1") = arg;
  asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

alignas(8) uptr idle_stack[1024];  // 4 KiB: the idle context also runs the self-test

}  // namespace

extern "C" void* memset(void* d, int c, __SIZE_TYPE__ n) noexcept {
  auto* p = static_cast<unsigned char*>(d);
  while (n-- != 0) *p++ = static_cast<unsigned char>(c);
  return d;
}
extern "C" void* memcpy(void* d, const void* s, __SIZE_TYPE__ n) noexcept {
  auto* p = static_cast<unsigned char*>(d);
  const auto* q = static_cast<const unsigned char*>(s);
  while (n-- != 0) *p++ = *q++;
  return d;
}

using handler = void (*)() noexcept;
// Vector table: initial MSP, then exceptions 1..15 (NMI, HardFault ... SysTick).
__attribute__((section(".isr_vector"), used)) const handler vector_table[16] = {
    reinterpret_cast<handler>(&_estack), Reset_Handler, Fault_Handler, Fault_Handler, Fault_Handler,
    Fault_Handler, Fault_Handler, nullptr, nullptr, nullptr, nullptr, SVC_Handler, Fault_Handler,
    nullptr, PendSV_Handler, SysTick_Handler};

// Reset: copy .data, zero .bss, move thread mode onto the idle task's process stack (so every
// context, idle included, is saved the same way by PendSV), then enter C++.
extern "C" __attribute__((naked, noreturn)) void Reset_Handler() noexcept {
  asm volatile(
      "ldr r0, =_sidata\n ldr r1, =_sdata\n ldr r2, =_edata\n"
      "1: cmp r1, r2\n bhs 2f\n ldr r3, [r0], #4\n str r3, [r1], #4\n b 1b\n"
      "2: ldr r1, =_sbss\n ldr r2, =_ebss\n movs r3, #0\n"
      "3: cmp r1, r2\n bhs 4f\n str r3, [r1], #4\n b 3b\n"
      "4: ldr r0, =%0\n msr psp, r0\n movs r0, #2\n msr control, r0\n isb\n"
      "bl cm3_main\n b .\n"
      :
      : "i"(reinterpret_cast<uptr>(idle_stack) + sizeof(idle_stack)));
}

extern "C" void cm3_main() noexcept { port::kernel_main("cortex-m3 mps2-an385"); }

extern "C" void Fault_Handler() noexcept {
  port::arch_puts("fault: HardFault or unexpected exception\n");
  port::arch_exit(4);
}

// SVC: the caller's r0 (operation) and r1 (argument) are in the frame the hardware pushed on
// the process stack; the result goes back into the stacked r0.
extern "C" __attribute__((naked)) void SVC_Handler() noexcept {
  asm volatile("mrs r0, psp\n b cm3_svc\n");
}
extern "C" void* cm3_svc(u32* frame) noexcept {
  bool resched = false;
  frame[0] = static_cast<u32>(port::kernel_syscall(static_cast<port::sys>(frame[0]), frame[1], &resched));
  if (resched) port::arch_request_switch();
  return nullptr;
}

extern "C" void SysTick_Handler() noexcept {
  if (port::kernel_tick()) port::arch_request_switch();
}

// PendSV: save r4-r11 below the hardware frame, let the kernel choose, restore the next task's.
// Interrupts are masked around kernel_switch because SysTick/SVC (higher priority) touch the
// same run queue. lr holds EXC_RETURN 0xFFFFFFFD (thread mode, PSP) throughout.
extern "C" __attribute__((naked)) void PendSV_Handler() noexcept {
  asm volatile(
      "cpsid i\n"
      "mrs r0, psp\n stmdb r0!, {r4-r11}\n"
      "push {lr}\n bl %0\n pop {lr}\n"
      "ldmia r0!, {r4-r11}\n msr psp, r0\n"
      "cpsie i\n bx lr\n"
      :
      : "i"(port::kernel_switch));
}

// The kernel's burn(): spin until *charged - target >= 0 (r12 is the scratch register), with
// seed + (n << 8) in r3-r11 and lr, then check them all. PendSV must bring back r4-r11, the
// exception entry and return r0-r3, r12, lr and the flags: a switch in the spin that loses one
// returns 0.
extern "C" __attribute__((naked)) u32 cm3_burn(const volatile u32*, u32, u32) noexcept {
  asm volatile(
      "push {r4-r11, lr}\n"
      "add r3, r2, #0x300\n add r4, r2, #0x400\n add r5, r2, #0x500\n add r6, r2, #0x600\n"
      "add r7, r2, #0x700\n add r8, r2, #0x800\n add r9, r2, #0x900\n add r10, r2, #0xA00\n"
      "add r11, r2, #0xB00\n add lr, r2, #0xE00\n"
      "1: ldr r12, [r0]\n subs r12, r12, r1\n bmi 1b\n"
      "add r12, r2, #0x300\n cmp r3, r12\n bne 2f\n add r12, r2, #0x400\n cmp r4, r12\n bne 2f\n"
      "add r12, r2, #0x500\n cmp r5, r12\n bne 2f\n add r12, r2, #0x600\n cmp r6, r12\n bne 2f\n"
      "add r12, r2, #0x700\n cmp r7, r12\n bne 2f\n add r12, r2, #0x800\n cmp r8, r12\n bne 2f\n"
      "add r12, r2, #0x900\n cmp r9, r12\n bne 2f\n add r12, r2, #0xA00\n cmp r10, r12\n bne 2f\n"
      "add r12, r2, #0xB00\n cmp r11, r12\n bne 2f\n add r12, r2, #0xE00\n cmp lr, r12\n bne 2f\n"
      "movs r0, #1\n pop {r4-r11, pc}\n"
      "2: movs r0, #0\n pop {r4-r11, pc}\n");
}

namespace port {

void arch_puts(const char* s) noexcept { semihost(0x04, s); }  // SYS_WRITE0

void arch_exit(int status) noexcept {
  // SYS_EXIT_EXTENDED carries a full status; plain SYS_EXIT (0 or 1 only) as a fallback.
  const u32 block[2] = {0x20026u, static_cast<u32>(status)};  // ADP_Stopped_ApplicationExit
  semihost(0x20, block);
  semihost(0x18, reinterpret_cast<const void*>(static_cast<uptr>(status == 0 ? 0x20026u : 0x20024u)));
  for (;;) {
  }
}

uptr arch_syscall(sys op, uptr arg) noexcept {
  register u32 r0 asm("r0") = static_cast<u32>(op);
  register u32 r1 asm("r1") = arg;
  asm volatile("svc 0" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void* arch_init_stack(void* stack_top, void (*entry)(uptr), uptr arg) noexcept {
  // 16 words: r4-r11 (popped by PendSV), then the hardware frame r0-r3, r12, lr, pc, xpsr.
  auto* sp = static_cast<u32*>(stack_top) - 16;
  for (int i = 0; i < 16; ++i) sp[i] = 0;
  sp[8] = arg;                                                 // r0
  sp[13] = 0;                                                  // lr: a return faults (tasks end with sys::exit)
  sp[14] = static_cast<u32>(reinterpret_cast<uptr>(entry)) & ~1u;  // pc (Thumb bit in xpsr)
  sp[15] = 0x01000000u;                                        // xpsr: T bit
  return sp;
}

void arch_start_tick() noexcept {
  // SVC and SysTick at priority 0x80, PendSV at the lowest (0xFF) so it runs last.
  reg(SHPR2) = 0x80u << 24;
  reg(SHPR3) = (0xFFu << 16) | (0x80u << 24);
  reg(SYST_RVR) = cpu_hz / 1000 - 1;  // 1 kHz
  reg(SYST_CVR) = 0;
  reg(TIMER0_CTRL) = 0;  // the free-running clock of arch_clock_us(): from 0xFFFFFFFF down
  reg(TIMER0_RELOAD) = 0xFFFFFFFFu;
  reg(TIMER0_VALUE) = 0xFFFFFFFFu;
  reg(TIMER0_CTRL) = 1u;  // enable, no interrupt
  reg(SYST_CSR) = 7;  // enable, interrupt, core clock
}

void arch_request_switch() noexcept { reg(ICSR) = 1u << 28; }  // PENDSVSET

bool arch_kernel_entries_masked() noexcept {
  u32 primask, ipsr;
  asm volatile("mrs %0, primask\n mrs %1, ipsr" : "=r"(primask), "=r"(ipsr));
  if ((primask & 1u) != 0) return true;
  const u32 active = ipsr & 0x1FFu;  // 0: thread mode, else the exception number
  // Only the system exceptions 4..15 have their priority in SHPR; anything else is not a kernel
  // context. An exception preempts only a strictly higher number (lower urgency).
  if (active < 4 || active > 15) return false;
  const u32 running = exception_priority(active);
  return running <= exception_priority(11) && running <= exception_priority(14) && running <= exception_priority(15);
}

u32 arch_clock_us() noexcept { return (0xFFFFFFFFu - reg(TIMER0_VALUE)) / (apb_hz / 1000000); }

void arch_wait_for_interrupt() noexcept { asm volatile("wfi" ::: "memory"); }

bool arch_burn(const volatile u32* charged, u32 target, u32 seed) noexcept {
  return cm3_burn(charged, target, seed) != 0;
}

}  // namespace port
