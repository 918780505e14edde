/// @file
/// @brief Check tiers, all routed through one handler that a kernel, an RTOS or a test redirects.
///
/// | macro | cost | compiled when | on failure |
/// |---|---|---|---|
/// | `SCHEDCORE_ASSERT(e)` | O(1) | `SCHEDCORE_ENABLE_ASSERTS` (default: `!NDEBUG`) | handler, kind `assertion` |
/// | `SCHEDCORE_INVARIANT(e)` | O(n) allowed | `SCHEDCORE_ENABLE_INVARIANTS` (default 0) | handler, kind `invariant` |
/// | `SCHEDCORE_WARN_ON(c)` | O(1), an expression returning `c` | always | handler, kind `warning` |
/// | `SCHEDCORE_MISUSE(c)` | O(1), an expression returning `c` | always | handler (kind `misuse`) when asserts are on |
///
/// When a tier is compiled out its expression is still type-checked (inside `sizeof`) but never
/// evaluated, so release builds pay nothing and debug-only names cannot rot.
///
/// `SCHEDCORE_WARN_ON` follows the kernel's `WARN_ON`: it always evaluates its condition and
/// returns it, so it can guard a recovery path: `if (SCHEDCORE_WARN_ON(!linked)) return;`.
/// `SCHEDCORE_MISUSE` is the same shape for API misuse that a container detects and refuses
/// (a second insert of a linked node, erase of an unlinked node, priority out of range): the operation returns
/// without changing anything, and debug builds also report it.
///
/// @par Redirecting the handler
/// Define `SCHEDCORE_ASSERT_HANDLER` to the name of a global function
/// `void NAME(const schedcore::check_failure&) noexcept` before including schedcore (usually on
/// the command line); schedcore declares it, you define it once. A kernel port calls
/// `WARN()`/`panic()`, an RTOS logs and halts, a test records the failure and returns. Without
/// it, the default handler executes a trap instruction for every kind but `warning`, which it
/// ignores: the core has no way to print.
#ifndef SCHEDCORE_CORE_ASSERT_HPP
#define SCHEDCORE_CORE_ASSERT_HPP

#include "schedcore/core/types.hpp"

namespace schedcore {

/// Which tier detected a failure.
enum class check_kind : u8 {
  assertion,  ///< a cheap precondition (`SCHEDCORE_ASSERT`)
  invariant,  ///< an O(n) structural check (`SCHEDCORE_INVARIANT`)
  warning,    ///< a recoverable surprise (`SCHEDCORE_WARN_ON`)
  misuse,     ///< an API call refused without side effects (`SCHEDCORE_MISUSE`)
};

/// Everything a handler learns about a failed check. All strings are static storage.
struct check_failure {
  check_kind kind;       ///< the tier
  const char* expr;      ///< the failed expression as written
  const char* file;      ///< source file of the check
  int line;              ///< source line of the check
  const char* function;  ///< enclosing function
};

/// The handler used when `SCHEDCORE_ASSERT_HANDLER` is not defined: trap on anything but a
/// warning. It has no side effects besides the trap, so it is safe in any context.
inline void default_assert_handler(const check_failure& failure) noexcept {
  if (failure.kind != check_kind::warning) __builtin_trap();
}

}  // namespace schedcore

#ifdef SCHEDCORE_ASSERT_HANDLER
/// The user's handler; defined once by the port or test.
void SCHEDCORE_ASSERT_HANDLER(const ::schedcore::check_failure& failure) noexcept;
#define SCHEDCORE_DETAIL_HANDLER SCHEDCORE_ASSERT_HANDLER
#else
#define SCHEDCORE_DETAIL_HANDLER ::schedcore::default_assert_handler
#endif

namespace schedcore::detail {

/// Out of line and cold so the fast path of every check is one predicted branch.
SCHEDCORE_COLD inline void report_failure(check_kind kind, const char* expr, const char* file, int line,
                                          const char* function) noexcept {
  const check_failure failure{kind, expr, file, line, function};
  SCHEDCORE_DETAIL_HANDLER(failure);
}

/// Reports `cond` when true and returns it unchanged (the body of WARN_ON and MISUSE).
SCHEDCORE_ALWAYS_INLINE bool report_if(bool cond, bool enabled, check_kind kind, const char* expr,
                                       const char* file, int line, const char* function) noexcept {
  if (SCHEDCORE_UNLIKELY(cond) && enabled) report_failure(kind, expr, file, line, function);
  return cond;
}

}  // namespace schedcore::detail

/// @cond INTERNAL
#define SCHEDCORE_DETAIL_CHECK(kind, expr)                                                         \
  (SCHEDCORE_LIKELY(!!(expr))                                                                      \
       ? static_cast<void>(0)                                                                      \
       : ::schedcore::detail::report_failure(kind, #expr, __FILE__, __LINE__, __func__))
#define SCHEDCORE_DETAIL_UNEVALUATED(expr) static_cast<void>(sizeof(!!(expr)))
/// @endcond

#if SCHEDCORE_ENABLE_ASSERTS
/// Cheap precondition check; compiled out (but type-checked) unless asserts are enabled.
#define SCHEDCORE_ASSERT(expr) SCHEDCORE_DETAIL_CHECK(::schedcore::check_kind::assertion, expr)
#else
#define SCHEDCORE_ASSERT(expr) SCHEDCORE_DETAIL_UNEVALUATED(expr)
#endif

#if SCHEDCORE_ENABLE_INVARIANTS
/// O(n) structural check (for example a container's `verify()` after each mutation); opt-in.
#define SCHEDCORE_INVARIANT(expr) SCHEDCORE_DETAIL_CHECK(::schedcore::check_kind::invariant, expr)
#else
/// O(n) structural check; opt-in with `SCHEDCORE_ENABLE_INVARIANTS` (type-checked, not evaluated, when off).
#define SCHEDCORE_INVARIANT(expr) SCHEDCORE_DETAIL_UNEVALUATED(expr)
#endif

/// Evaluates `cond`, reports it as a warning when true, and yields it as a bool.
#define SCHEDCORE_WARN_ON(cond)                                                                    \
  ::schedcore::detail::report_if(!!(cond), true, ::schedcore::check_kind::warning,                 \
                                 #cond, __FILE__, __LINE__, __func__)

/// Evaluates `cond` (a detected API misuse), reports it when asserts are enabled, and yields it
/// as a bool so the caller can refuse the operation: `if (SCHEDCORE_MISUSE(h.linked())) return;`.
#define SCHEDCORE_MISUSE(cond)                                                                     \
  ::schedcore::detail::report_if(!!(cond), SCHEDCORE_ENABLE_ASSERTS != 0,                          \
                                 ::schedcore::check_kind::misuse, #cond, __FILE__, __LINE__, __func__)

#endif
