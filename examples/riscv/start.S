/* RISC-V (rv32/rv64, M-mode) startup and trap entry for the schedcore demo kernel.
   One trap vector serves the timer interrupt and ecall (system calls). A trap saves the
   interrupted context on that context's own stack, asks rv_trap() which stack to resume
   (the same one, or another task's after a switch), and restores from it: the context switch
   is just "return a different stack pointer". */
#if __riscv_xlen == 64
#define SREG sd
#define LREG ld
#define R 8
#else
#define SREG sw
#define LREG lw
#define R 4
#endif
#define FRAME (32 * R)

  .section .text.init, "ax"
  .globl _start
_start:
  .option push
  .option arch, +zicsr
  csrr t0, mhartid
  .option pop
  bnez t0, park                 /* only hart 0 runs */
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la sp, __stack_top
  la t0, __bss_start
  la t1, __bss_end
1:bgeu t0, t1, 2f
  sw zero, 0(t0)
  addi t0, t0, 4
  j 1b
2:la t0, trap_entry
  .option push
  .option arch, +zicsr
  csrw mtvec, t0                /* direct mode: the address is 4-byte aligned */
  .option pop
  call rv_main
park:
  wfi
  j park

  .text
  .balign 4
  .globl trap_entry
trap_entry:
  addi sp, sp, -FRAME
  SREG x1, 1*R(sp)
  SREG x3, 3*R(sp)
  SREG x4, 4*R(sp)
  SREG x5, 5*R(sp)
  SREG x6, 6*R(sp)
  SREG x7, 7*R(sp)
  SREG x8, 8*R(sp)
  SREG x9, 9*R(sp)
  SREG x10, 10*R(sp)
  SREG x11, 11*R(sp)
  SREG x12, 12*R(sp)
  SREG x13, 13*R(sp)
  SREG x14, 14*R(sp)
  SREG x15, 15*R(sp)
  SREG x16, 16*R(sp)
  SREG x17, 17*R(sp)
  SREG x18, 18*R(sp)
  SREG x19, 19*R(sp)
  SREG x20, 20*R(sp)
  SREG x21, 21*R(sp)
  SREG x22, 22*R(sp)
  SREG x23, 23*R(sp)
  SREG x24, 24*R(sp)
  SREG x25, 25*R(sp)
  SREG x26, 26*R(sp)
  SREG x27, 27*R(sp)
  SREG x28, 28*R(sp)
  SREG x29, 29*R(sp)
  SREG x30, 30*R(sp)
  SREG x31, 31*R(sp)
  .option push
  .option arch, +zicsr
  csrr t0, mepc
  .option pop
  SREG t0, 0(sp)                /* slot 0: where to resume */
  mv a0, sp
  call rv_trap                  /* a0 = frame of the context to resume */
  mv sp, a0
  LREG t0, 0(sp)
  .option push
  .option arch, +zicsr
  csrw mepc, t0
  .option pop
  LREG x1, 1*R(sp)
  LREG x3, 3*R(sp)
  LREG x4, 4*R(sp)
  LREG x5, 5*R(sp)
  LREG x6, 6*R(sp)
  LREG x7, 7*R(sp)
  LREG x8, 8*R(sp)
  LREG x9, 9*R(sp)
  LREG x10, 10*R(sp)
  LREG x11, 11*R(sp)
  LREG x12, 12*R(sp)
  LREG x13, 13*R(sp)
  LREG x14, 14*R(sp)
  LREG x15, 15*R(sp)
  LREG x16, 16*R(sp)
  LREG x17, 17*R(sp)
  LREG x18, 18*R(sp)
  LREG x19, 19*R(sp)
  LREG x20, 20*R(sp)
  LREG x21, 21*R(sp)
  LREG x22, 22*R(sp)
  LREG x23, 23*R(sp)
  LREG x24, 24*R(sp)
  LREG x25, 25*R(sp)
  LREG x26, 26*R(sp)
  LREG x27, 27*R(sp)
  LREG x28, 28*R(sp)
  LREG x29, 29*R(sp)
  LREG x30, 30*R(sp)
  LREG x31, 31*R(sp)
  addi sp, sp, FRAME
  mret                          /* MIE <- MPIE (always 1: tasks run with interrupts on) */


/* The kernel's burn() (port::arch_burn): u32 rv_burn(const volatile u32* charged, u32 target,
   u32 seed) spins until *charged - target >= 0 (32-bit, wrap-safe; a7 is the scratch register)
   with seed + n in every register xn but zero, sp, gp, a0-a2 (its arguments) and a7, then
   checks them all: a trap in the spin that switches away and back must restore every one of
   them, else it returns 0. ra, tp and s0-s11 are the caller's and are saved here. */
#if __riscv_xlen == 64
#define SUBW subw
#else
#define SUBW sub
#endif
  .text
  .balign 4
  .globl rv_burn
rv_burn:
  addi sp, sp, -16*R            /* 14 slots used; sp stays 16-byte aligned */
  SREG x1, 0*R(sp)
  SREG x4, 1*R(sp)
  SREG x8, 2*R(sp)
  SREG x9, 3*R(sp)
  SREG x18, 4*R(sp)
  SREG x19, 5*R(sp)
  SREG x20, 6*R(sp)
  SREG x21, 7*R(sp)
  SREG x22, 8*R(sp)
  SREG x23, 9*R(sp)
  SREG x24, 10*R(sp)
  SREG x25, 11*R(sp)
  SREG x26, 12*R(sp)
  SREG x27, 13*R(sp)
  .irp n, 1,4,5,6,7,8,9,13,14,15,16,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  addi x\n, a2, \n
  .endr
1:lw a7, 0(a0)
  SUBW a7, a7, a1
  bltz a7, 1b
  .irp n, 1,4,5,6,7,8,9,13,14,15,16,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  addi a7, a2, \n
  bne x\n, a7, 2f
  .endr
  li a0, 1
  j 3f
2:li a0, 0
3:LREG x1, 0*R(sp)
  LREG x4, 1*R(sp)
  LREG x8, 2*R(sp)
  LREG x9, 3*R(sp)
  LREG x18, 4*R(sp)
  LREG x19, 5*R(sp)
  LREG x20, 6*R(sp)
  LREG x21, 7*R(sp)
  LREG x22, 8*R(sp)
  LREG x23, 9*R(sp)
  LREG x24, 10*R(sp)
  LREG x25, 11*R(sp)
  LREG x26, 12*R(sp)
  LREG x27, 13*R(sp)
  addi sp, sp, 16*R
  ret
