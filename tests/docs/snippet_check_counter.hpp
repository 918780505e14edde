// For the contexts of tests/docs/snippets whose block shows a misuse being refused: include it
// first. It routes the library's checks to a handler that counts them (instead of the default
// trap), so the run can check the report with asserts on and its absence with them off.
// Freestanding, as the blocks are.
#ifndef SCHEDCORE_TESTS_DOCS_SNIPPET_CHECK_COUNTER_HPP
#define SCHEDCORE_TESTS_DOCS_SNIPPET_CHECK_COUNTER_HPP

#define SCHEDCORE_ASSERT_HANDLER docs_snippet_count_check
#include "schedcore/core/assert.hpp"

namespace docs_snippet {
inline int misuse_reports = 0;  // check_kind::misuse reports
inline int other_reports = 0;   // reports of any other kind
/// The reports a run with asserts on expects for `misuses` refused misuses; 0 with them off.
constexpr int expected_misuse_reports(int misuses) { return SCHEDCORE_ENABLE_ASSERTS ? misuses : 0; }
}  // namespace docs_snippet

inline void docs_snippet_count_check(const ::schedcore::check_failure& failure) noexcept {
  if (failure.kind == ::schedcore::check_kind::misuse) ++docs_snippet::misuse_reports;
  else ++docs_snippet::other_reports;
}

#endif
