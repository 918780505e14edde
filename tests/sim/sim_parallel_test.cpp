// schedsim's parallel sweeps and policy stack at the command line: `compare` and `sweep` give
// byte-identical output whatever --jobs is (results are collected in job order); the registry
// lists cfs2007; `edf` is the top class of every stack, not a --policy name; a SCHED_DEADLINE
// task refused by admission control is a bad input file (exit 3) whose message names the task.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "schedsim_cli.hpp"

namespace {

using schedsim_cli::result;

// Runs schedsim with `args`; `with_stderr` merges stderr into out.
result run(const std::string& args, bool with_stderr = false) {
  return schedsim_cli::run(args, with_stderr ? " 2>&1" : " 2>/dev/null");
}

TEST(SchedsimParallel, CompareIsByteIdenticalForAnyJobCount) {
  const std::string base = "compare --scenario all --duration 1s --no-host-timing --format json";
  const result serial = run(base + " --jobs 1");
  ASSERT_EQ(serial.code, 0);
  ASSERT_GT(serial.out.size(), 1000u);
  for (const char* jobs : {"2", "3", "8"}) {
    const result par = run(base + " --jobs " + jobs);
    ASSERT_EQ(par.code, 0);
    EXPECT_EQ(par.out, serial.out) << "--jobs " << jobs;
  }
  const result def = run(base);  // default: hardware concurrency
  EXPECT_EQ(def.out, serial.out);
}

TEST(SchedsimParallel, TablesAndSweepsAreByteIdenticalForAnyJobCount) {
  const std::string table = "compare --scenario xterm-renice --duration 1s --no-host-timing";
  const result t1 = run(table + " --jobs 1"), t4 = run(table + " --jobs 4");
  ASSERT_EQ(t1.code, 0);  // two failing runs would print the same nothing
  ASSERT_EQ(t4.code, 0);
  ASSERT_FALSE(t1.out.empty());
  EXPECT_EQ(t1.out, t4.out);
  const std::string sweep =
      "sweep --scenario kernbench-4cpu --policy cfs --knob min_granularity=100us,750us,3ms,6ms --duration 1s "
      "--no-host-timing --format csv";
  const result a = run(sweep + " --jobs 1"), b = run(sweep + " --jobs 4");
  ASSERT_EQ(a.code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find("cfs:min_granularity=6ms,kernbench-4cpu,_total"), std::string::npos);
}

TEST(SchedsimParallel, RegistryListsCfs2007AndNotEdf) {
  const result l = run("list");
  ASSERT_EQ(l.code, 0);
  EXPECT_NE(l.out.find("  cfs2007 "), std::string::npos);
  EXPECT_NE(l.out.find("granularity"), std::string::npos);
  const result e = run("run --scenario hogs-1000 --duration 10ms --policy edf", true);
  EXPECT_EQ(e.code, 2);
  EXPECT_EQ(e.out.rfind("schedsim: unknown policy 'edf'", 0), 0u) << e.out;  // not another usage error
  const result r = run("run --scenario xterm-renice/xnice0 --duration 200ms --policy cfs2007:granularity=2ms");
  EXPECT_EQ(r.code, 0);
}

TEST(SchedsimParallel, DeadlineAdmissionRefusalIsABadFile) {
  const std::string path = std::string(SCHEDSIM_TMP) + "/dl-overload.json";
  {
    std::ofstream f(path);
    f << "{ \"tasks\": {\n"
         "    \"cam\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 6000, \"dl-period\": 10000, \"run\": 1000 },\n"
         "    \"mic\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 6000, \"dl-period\": 10000, \"run\": 1000 }\n"
         "  },\n"
         "  \"global\": { \"duration\": 1 } }\n";
  }
  const result r = run("run --rt-app " + path + " --cpus 1", true);
  if (r.code == 2 && r.out.find("no rt-app importer") != std::string::npos) GTEST_SKIP() << "built without rt-app";
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("task 'mic-0'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("admission"), std::string::npos) << r.out;
  // Two CPUs: the root domain's cap is 2 x 95 %, both fit and run under edf.
  const result ok = run("run --rt-app " + path + " --cpus 2 --format json --no-host-timing", true);
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("\"policy\": \"deadline\""), std::string::npos) << ok.out;
}

}  // namespace
