// schedsim command line: exit codes (0 ok, 2 usage, 3 bad input), formats, byte-identical
// output for identical runs, and the trace file.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

struct result {
  int code;
  std::string out;
};

result run(const std::string& args) {
  const std::string cmd = std::string(SCHEDSIM_BIN) + " " + args + " 2>/dev/null";
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

TEST(SchedsimCli, ExitCodes) {
  EXPECT_EQ(run("list").code, 0);
  EXPECT_EQ(run("").code, 2);
  EXPECT_EQ(run("frobnicate").code, 2);
  EXPECT_EQ(run("run").code, 2);                                          // no workload
  EXPECT_EQ(run("run --scenario nosuch").code, 2);
  EXPECT_EQ(run("run --scenario desktop-2007 --policy nosuch").code, 2);
  EXPECT_EQ(run("run --scenario desktop-2007 --policy ref-rr:bogus=1ms").code, 2);
  EXPECT_EQ(run("run --scenario desktop-2007 --policy ref-rr:timeslice=99s").code, 2);  // out of bounds
  EXPECT_EQ(run("run --scenario desktop-2007 --duration -3s").code, 2);
  EXPECT_EQ(run("run --scenario desktop-2007 --format xml").code, 2);
  EXPECT_EQ(run("run --scenario desktop-2007 --policy ref-rr --duration 200ms").code, 0);
}

TEST(SchedsimCli, JsonIsByteIdenticalAcrossRuns) {
  const std::string args = "compare --scenario games-renice --policies ref-rr,ref-rr:timeslice=2ms --duration 1s "
                           "--format json --no-host-timing";
  const result a = run(args), b = run(args);
  ASSERT_EQ(a.code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.out.front(), '[');
  EXPECT_NE(a.out.find("\"policy\": \"ref-rr:timeslice=2ms\""), std::string::npos);
}

TEST(SchedsimCli, CsvAndSweep) {
  const result c = run("sweep --scenario kernbench-4cpu --policy ref-rr --knob timeslice=1ms,100ms --format csv --duration 2s");
  ASSERT_EQ(c.code, 0);
  EXPECT_EQ(c.out.rfind("policy,scenario,task,", 0), 0u);
  EXPECT_NE(c.out.find("ref-rr:timeslice=1ms,kernbench-4cpu,_total"), std::string::npos);
  EXPECT_NE(c.out.find("ref-rr:timeslice=100ms,kernbench-4cpu,_total"), std::string::npos);
}

TEST(SchedsimCli, TraceFileStartsWithTracerHeader) {
  const std::string path = std::string(SCHEDSIM_TMP) + "/trace.txt";
  std::remove(path.c_str());
  ASSERT_EQ(run("run --scenario games-renice/xnice0 --policy ref-rr --duration 100ms --trace " + path).code, 0);
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string t = ss.str();
  EXPECT_EQ(t.rfind("# tracer: nop\n", 0), 0u);
  EXPECT_NE(t.find(": sched_switch: prev_comm="), std::string::npos);
  EXPECT_NE(t.find(": sched_waking: comm="), std::string::npos);
  EXPECT_EQ(run("run --scenario games-renice --policy ref-rr --trace " + path).code, 2);  // two workloads
}

TEST(SchedsimCli, CompareSeedTables) {
  const result r = run("compare --scenario xterm-renice --policies ref-rr --duration 2s");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("== xterm-renice/xnice-10"), std::string::npos);
  EXPECT_NE(r.out.find("cs/s"), std::string::npos);
}

}  // namespace
