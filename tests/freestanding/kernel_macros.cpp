// The headers under the macros a kernel-compat or RTOS header may define before them, in the
// Linux kernel's forms: the function-like min, max, swap and ilog2, the attribute shorthands of
// compiler_attributes.h (noinline, __cold, __always_inline), likely/unlikely and container_of.
// The first five break a name or an attribute the headers spell (int_limits::max, swap, ilog2,
// __attribute__((noinline))) unless the name is parenthesised or the attribute spelt __name__.
#define min(x, y) ((x) < (y) ? (x) : (y))
#define max(x, y) ((x) > (y) ? (x) : (y))
#define swap(a, b) \
  do {             \
    auto t_ = (a); \
    (a) = (b);     \
    (b) = t_;      \
  } while (0)
#define ilog2(n) (63u - static_cast<unsigned>(__builtin_clzll(n)))
#define noinline __attribute__((__noinline__))
#define __cold __attribute__((__cold__))
#define __always_inline inline __attribute__((__always_inline__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define container_of(ptr, type, member) ((type*)((char*)(ptr)-__builtin_offsetof(type, member)))
#include "all_headers.cpp"
