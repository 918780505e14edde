#include "check_recorder.hpp"

#include <gtest/gtest.h>

namespace schedcore_test {

std::vector<recorded_check>& recorded_checks() {
  static std::vector<recorded_check> checks;
  return checks;
}

int& active_scopes() {
  static int scopes = 0;
  return scopes;
}

check_scope::check_scope() {
  recorded_checks().clear();
  ++active_scopes();
}

check_scope::~check_scope() {
  --active_scopes();
  EXPECT_TRUE(recorded_checks().empty()) << recorded_checks().size()
                                         << " unexpected check failure(s), first: "
                                         << recorded_checks().front().expr << " at "
                                         << recorded_checks().front().file << ":"
                                         << recorded_checks().front().line;
  recorded_checks().clear();
}

std::vector<recorded_check> check_scope::take() {
  std::vector<recorded_check> out;
  out.swap(recorded_checks());
  return out;
}

}  // namespace schedcore_test

// Outside any check_scope an unexpected failure is a test failure too: report it to GoogleTest
// at the place the check fired, then keep going (the library refuses the operation itself).
void schedcore_test_check_handler(const schedcore::check_failure& failure) noexcept {
  if (schedcore_test::active_scopes() == 0) {
    ADD_FAILURE_AT(failure.file, failure.line)
        << "schedcore check failed outside a check_scope: " << failure.expr;
    return;
  }
  schedcore_test::recorded_checks().push_back(
      {failure.kind, failure.expr, failure.file, failure.line});
}
