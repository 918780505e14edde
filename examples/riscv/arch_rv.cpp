// RISC-V (rv32imac / rv64imac, M-mode) port of the schedcore demo kernel
// (examples/cortex-m/portable/kernel.hpp, shared with the Cortex-M3 port).
//
// What it does: on qemu's "virt" board with -bios none, runs the same four tasks with the same
// run queue as the Cortex-M3 port, ticking at 1 kHz from the CLINT machine timer, taking system
// calls with ecall, printing on the NS16550 UART and exiting through the SiFive test device.
// What it demonstrates: the portable kernel and scheduler produce the very same trace on a
// different ISA and word size (rv64: 64-bit pointers and registers) as on Cortex-M3.
// Where it behaves badly: M-mode only (no PMP, no privilege separation), no FPU context
// (built for imac), a single hart (the others park in wfi), and the UART is polled.
#include "portable/kernel.hpp"

using port::uptr;
using port::u32;
using port::u64;

extern "C" {
void* rv_trap(uptr* frame) noexcept;
void rv_main() noexcept;
u32 rv_burn(const volatile u32* charged, u32 target, u32 seed) noexcept;  // start.S
void* memset(void* d, int c, __SIZE_TYPE__ n) noexcept;
void* memcpy(void* d, const void* s, __SIZE_TYPE__ n) noexcept;
}

namespace {

constexpr uptr uart = 0x10000000;         // NS16550: THR at +0, LSR at +5 (bit 5: THR empty)
constexpr uptr test_dev = 0x100000;       // SiFive test finisher
constexpr uptr mtime = 0x0200BFF8;        // CLINT mtime (64-bit)
constexpr uptr mtimecmp0 = 0x02004000;    // CLINT mtimecmp for hart 0 (64-bit)
constexpr u32 timebase_hz = 10000000;     // virt's timebase-frequency
constexpr u32 tick_period = timebase_hz / 1000;

volatile unsigned char& mmio8(uptr a) noexcept { return *reinterpret_cast<volatile unsigned char*>(a); }
volatile u32& mmio32(uptr a) noexcept { return *reinterpret_cast<volatile u32*>(a); }

u64 next_deadline = 0;
u64 clock_origin = 0;  // mtime at arch_start_tick(): arch_clock_us() counts from it

void set_timecmp(u64 t) noexcept {
  // On rv32 the 64-bit compare register is written in halves: park the high half at the
  // maximum first so that no intermediate value fires early.
  mmio32(mtimecmp0 + 4) = 0xFFFFFFFFu;
  mmio32(mtimecmp0) = static_cast<u32>(t);
  mmio32(mtimecmp0 + 4) = static_cast<u32>(t >> 32);
}

u64 read_mtime() noexcept {
  u32 hi, lo;
  do {  // re-read if the low half wrapped between the reads
    hi = mmio32(mtime + 4);
    lo = mmio32(mtime);
  } while (hi != mmio32(mtime + 4));
  return (static_cast<u64>(hi) << 32) | lo;
}

uptr read_mcause() noexcept {
  uptr v;
  asm volatile(".option push\n.option arch, +zicsr\ncsrr %0, mcause\n.option pop" : "=r"(v));
  return v;
}

uptr read_gp() noexcept {
  uptr v;
  asm volatile("mv %0, gp" : "=r"(v));
  return v;
}

constexpr uptr cause_interrupt = static_cast<uptr>(1) << (sizeof(uptr) * 8 - 1);
constexpr uptr cause_m_timer = cause_interrupt | 7;
constexpr uptr cause_ecall_m = 11;

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

extern "C" void rv_main() noexcept {
  port::kernel_main(sizeof(uptr) == 8 ? "rv64imac qemu virt" : "rv32imac qemu virt");
}

// Trap frame (start.S): slot 0 = mepc, slot i = register xi (slot 2, sp, is implicit).
extern "C" void* rv_trap(uptr* frame) noexcept {
  const uptr cause = read_mcause();
  bool resched = false;
  if (cause == cause_m_timer) {
    next_deadline += tick_period;  // periodic, not "now + period": no drift
    set_timecmp(next_deadline);
    resched = port::kernel_tick();
  } else if (cause == cause_ecall_m) {
    frame[0] += 4;  // resume after the ecall
    frame[10] = port::kernel_syscall(static_cast<port::sys>(frame[10]), frame[11], &resched);
  } else {
    port::arch_puts("fault: unexpected trap\n");
    port::arch_exit(4);
  }
  return resched ? port::kernel_switch(frame) : frame;
}

namespace port {

void arch_puts(const char* s) noexcept {
  for (; *s != '\0'; ++s) {
    while ((mmio8(uart + 5) & 0x20u) == 0) {
    }
    mmio8(uart) = static_cast<unsigned char>(*s);
  }
}

void arch_exit(int status) noexcept {
  mmio32(test_dev) = status == 0 ? 0x5555u : (static_cast<u32>(status) << 16) | 0x3333u;
  for (;;) {
  }
}

uptr arch_syscall(sys op, uptr arg) noexcept {
  register uptr a0 asm("a0") = static_cast<uptr>(op);
  register uptr a1 asm("a1") = arg;
  asm volatile("ecall" : "+r"(a0) : "r"(a1) : "memory");
  return a0;
}

void* arch_init_stack(void* stack_top, void (*entry)(uptr), uptr arg) noexcept {
  auto* frame = static_cast<uptr*>(stack_top) - 32;
  for (int i = 0; i < 32; ++i) frame[i] = 0;
  frame[0] = reinterpret_cast<uptr>(entry);  // mepc
  frame[3] = read_gp();                      // gp: the small-data base is shared by all tasks
  frame[10] = arg;                           // a0
  return frame;
}

void arch_start_tick() noexcept {
  clock_origin = read_mtime();
  next_deadline = clock_origin + tick_period;
  set_timecmp(next_deadline);
  asm volatile(
      ".option push\n.option arch, +zicsr\n"
      "csrs mie, %0\n csrs mstatus, %1\n"
      ".option pop" ::"r"(static_cast<uptr>(1) << 7),  // MTIE
      "r"(static_cast<uptr>(1) << 3)                   // MIE
      : "memory");
}

void arch_request_switch() noexcept {}  // rv_trap switches on its way out of every trap

void arch_wait_for_interrupt() noexcept { asm volatile("wfi" ::: "memory"); }

bool arch_kernel_entries_masked() noexcept {
  uptr status;
  asm volatile(".option push\n.option arch, +zicsr\ncsrr %0, mstatus\n.option pop" : "=r"(status));
  return (status & (static_cast<uptr>(1) << 3)) == 0;  // MIE clear: no timer trap (ecall is synchronous)
}

u32 arch_clock_us() noexcept {
  return static_cast<u32>((read_mtime() - clock_origin) / (timebase_hz / 1000000));
}

bool arch_burn(const volatile u32* charged, u32 target, u32 seed) noexcept {
  return rv_burn(charged, target, seed) != 0;
}

}  // namespace port
