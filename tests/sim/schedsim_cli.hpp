// Runs the schedsim binary (SCHEDSIM_BIN, set by tests/sim/CMakeLists.txt) from the CLI tests:
// the command's stdout, and its exit code (-1 if it did not exit normally).
#ifndef SCHEDCORE_TESTS_SIM_SCHEDSIM_CLI_HPP
#define SCHEDCORE_TESTS_SIM_SCHEDSIM_CLI_HPP

#include <sys/wait.h>

#include <cstddef>
#include <cstdio>
#include <string>

namespace schedsim_cli {

struct result {
  int code;         ///< exit code, -1 when killed or not started
  std::string out;  ///< what it wrote to the pipe (stdout, and stderr when redirected there)
};

/// A shell command's stdout and exit code.
inline result run_shell(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  result r{-1, {}};
  if (p == nullptr) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

/// `schedsim ARGS REDIRECT` through the shell; REDIRECT is e.g. " 2>/dev/null" or " 2>&1".
inline result run(const std::string& args, const char* redirect) {
  return run_shell(std::string(SCHEDSIM_BIN) + " " + args + redirect);
}

}  // namespace schedsim_cli

#endif
