// Test-side handler for schedcore's check tiers: records every failure instead of trapping, so
// tests can assert that misuse was reported and refused without side effects.
#ifndef SCHEDCORE_TESTS_CHECK_RECORDER_HPP
#define SCHEDCORE_TESTS_CHECK_RECORDER_HPP

#include <string>
#include <vector>

#include "schedcore/core/assert.hpp"

namespace schedcore_test {

/// One recorded failure with owned copies of its strings.
struct recorded_check {
  schedcore::check_kind kind;
  std::string expr;
  std::string file;
  int line;
};

/// Everything recorded since the last clear (process-wide; tests run single-threaded).
std::vector<recorded_check>& recorded_checks();

/// Number of live check_scope objects; a failure with none alive fails the current test.
int& active_scopes();

/// RAII scope: clears on entry; on exit fails the test if failures were recorded but not
/// taken with take(). Use one per test that expects misuse reports.
class check_scope {
 public:
  check_scope();
  ~check_scope();
  check_scope(const check_scope&) = delete;
  check_scope& operator=(const check_scope&) = delete;
  /// Returns and clears the recorded failures.
  std::vector<recorded_check> take();
};

}  // namespace schedcore_test

#endif
