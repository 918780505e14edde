// schedsim command line: exit codes (0 ok, 2 usage, 3 bad input), formats, byte-identical
// output for identical runs, and the trace file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>


#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "schedcore/sim/json.hpp"
#include "schedcore/version.hpp"

#include "schedsim_cli.hpp"

namespace {

using schedsim_cli::result;

result run(const std::string& args, const char* stderr_to = " 2>/dev/null") { return schedsim_cli::run(args, stderr_to); }

// Writes `text` to SCHEDSIM_TMP/`name` (a workload of a test's own) and returns the path.
std::string scratch_file(const std::string& name, const std::string& text) {
  const std::string path = std::string(SCHEDSIM_TMP) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// The simulator guide shows `schedsim --help` as it prints: the fenced block that starts with
// the usage line is the whole output, byte for byte (it had fallen nine options behind).
TEST(SchedsimCli, TheGuideShowsTheHelpAsPrinted) {
  const result help = run("--help");
  ASSERT_EQ(help.code, 0);
  std::ifstream guide(SCHEDCORE_DOCS_DIR "/guides/simulator.md");
  ASSERT_TRUE(guide) << "cannot read " SCHEDCORE_DOCS_DIR "/guides/simulator.md";
  std::stringstream text;
  text << guide.rdbuf();
  const std::string doc = text.str();
  const std::size_t from = doc.find("```\nusage: schedsim ");
  ASSERT_NE(from, std::string::npos) << "no fenced block starting with the usage line";
  const std::size_t body = from + 4;
  const std::size_t to = doc.find("```\n", body);
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(doc.substr(body, to - body), help.out);
}

// --version names the library the simulator was built from (version.hpp's three numbers, the
// ones CMake's package config reports), and like list takes no options.
TEST(SchedsimCli, VersionNamesTheLibrary) {
  const result v = run("--version");
  ASSERT_EQ(v.code, 0);
  EXPECT_EQ(v.out, "schedsim (schedcore " + std::to_string(SCHEDCORE_VERSION_MAJOR) + "." + std::to_string(SCHEDCORE_VERSION_MINOR) +
                       "." + std::to_string(SCHEDCORE_VERSION_PATCH) + ")\n");
  EXPECT_EQ(run("--version --cpus 2").code, 2);
  EXPECT_EQ(run("-V").code, 2);  // no other spelling
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
  EXPECT_EQ(run("run --scenario desktop-2007 --tick-phase -1ms").code, 2);  // before the grid's origin
  EXPECT_EQ(run("run --scenario desktop-2007 --tick-phase soon").code, 2);
  EXPECT_EQ(run("run --scenario desktop-2007 --policy ref-rr --duration 200ms --tick-phase 250us").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy cfs --duration 200ms --balance-by load").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy cfs --duration 200ms --balance-by count").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --balance-by").code, 2);  // no value
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy cfs --duration 200ms --wake-affine off").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy cfs --duration 200ms --wake-affine on").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --wake-affine").code, 2);  // no value
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy cfs --duration 200ms --sis-util on").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy cfs --duration 200ms --sis-util off --balance-by load").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --sis-util").code, 2);  // no value
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy cfs --duration 200ms --rt-runtime-share on").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy cfs --duration 200ms --rt-runtime-share off").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --rt-runtime-share").code, 2);  // no value
  EXPECT_EQ(run("run --scenario desktop-2007 --policy cfs --duration 200ms --rt-runtime -1").code, 0);
  EXPECT_EQ(run("run --scenario desktop-2007 --policy cfs --duration 200ms --rt-runtime 10ms --rt-period 20ms").code, 0);
  EXPECT_EQ(run("run --scenario desktop-2007 --policy cfs --duration 200ms --rt-runtime 0").code, 0);
  EXPECT_EQ(run("run --scenario desktop-2007 --rt-period").code, 2);  // no value
  EXPECT_EQ(run("compare --scenario desktop-2007 --duration 200ms --fair-server 50ms --rt-runtime -1").code, 0);
  EXPECT_EQ(run("run --scenario desktop-2007 --policy eevdf --duration 200ms --fair-server 5ms --fair-server-period 100ms").code, 0);
  EXPECT_EQ(run("run --scenario desktop-2007 --fair-server").code, 2);  // no value
  EXPECT_EQ(run("run --scenario desktop-2007 --policy cfs --duration 200ms --fair-server 50ms --fair-server-rules 6.19").code, 0);
  EXPECT_EQ(run("run --scenario desktop-2007 --policy cfs --duration 200ms --fair-server 50ms --fair-server-rules 6.12").code, 0);
  EXPECT_EQ(run("run --scenario desktop-2007 --fair-server-rules").code, 2);  // no value
  EXPECT_EQ(run("run --scenario autogroup/on --policy eevdf --duration 200ms --cpu-max make=10ms/100ms").code, 0);
  EXPECT_EQ(run("run --scenario autogroup/on --policy cfs --duration 200ms --cpu-max make=max/100ms --cpu-max pert=5ms/10ms/5ms").code, 0);
  EXPECT_EQ(run("run --scenario autogroup/on --cpu-max").code, 2);  // no value
  {  // a family: capped where the group is, a note where it is not
    const result r = run("compare --scenario autogroup --policies eevdf --duration 300ms --format json --cpu-max make=10ms/100ms");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("--cpu-max: no cgroup 'make' in autogroup/off, nothing capped"), std::string::npos);
    EXPECT_NE(r.out.find("\"cgroups\": [{ \"name\": \"make\", \"quota_ns\": 10000000"), std::string::npos);
  }
  // A capacity list sets the CPU count; --cpus, when given, must agree.
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy eevdf --duration 200ms --capacity 1024,1024,446,446").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy eevdf --duration 200ms --capacity 1024,446 --cpus 2").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --capacity").code, 2);  // no value
  // SMT: whole cores of a CPU count that is given, 1..8 threads, a gain of 0..100 %; the JSON
  // names the machine.
  {
    const result r = run("run --scenario kernbench-4cpu --policy eevdf --duration 200ms --cpus 4 --smt 2 --smt-gain 30 --format json");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("\"smt\": { \"threads_per_core\": 2, \"gain_pct\": 30 }"), std::string::npos) << r.out.substr(0, 300);
  }
  for (const char* bad : {"--smt 2", "--cpus 3 --smt 2", "--cpus 16 --smt 9", "--cpus 2 --smt 0", "--cpus 2 --smt 2 --smt-gain 101",
                          "--cpus 2 --smt 2 --smt-gain -1", "--cpus 2 --smt"}) {
    const result r = run(std::string("run --scenario kernbench-4cpu --duration 100ms ") + bad, " 2>&1");
    EXPECT_EQ(r.code, 2) << bad;
    // The message itself names the option (the usage text that follows names --smt anyway).
    EXPECT_EQ(r.out.rfind("schedsim: --smt", 0), 0u) << bad << ": " << r.out;
  }
}

// --energy-model FILE: the example big.LITTLE model sets 6 CPUs and their capacities, and the
// JSON and tables report energy; bad files exit 3 naming file:line:column, and a --cpus or
// --capacity that disagrees with the file is a usage error.
TEST(SchedsimCli, EnergyModel) {
  const std::string model = std::string(SCHEDCORE_EXAMPLES_DIR) + "/energy-models/big-little.json";
  const std::string json_args = "run --scenario kernbench-4cpu --policy eevdf --duration 300ms --format json --no-host-timing --energy-model ";
  const result json = run(json_args + model);
  ASSERT_EQ(json.code, 0);
  EXPECT_NE(json.out.find("\"cpus\": 6,"), std::string::npos);
  EXPECT_NE(json.out.find("\"capacity\": [446, 446, 446, 446, 1024, 1024]"), std::string::npos) << json.out.substr(0, 400);
  EXPECT_NE(json.out.find("\"energy\": { \"total_mj\": "), std::string::npos);
  EXPECT_NE(json.out.find("{ \"name\": \"big\", \"first_cpu\": 4, \"cpus\": 2, \"capacity\": 1024"), std::string::npos);
  const auto parsed = schedcore::sim::json::parse(json.out);  // the output is valid JSON
  EXPECT_TRUE(parsed.is_object());
  const result table = run("compare --scenario kernbench-4cpu --policies cfs,eevdf --duration 300ms --energy-model " + model);
  ASSERT_EQ(table.code, 0);
  EXPECT_NE(table.out.find("energy mJ"), std::string::npos) << table.out;
  const result one = run("run --scenario kernbench-4cpu --policy cfs --duration 300ms --energy-model " + model);
  EXPECT_NE(one.out.find("  little "), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("  big "), std::string::npos) << one.out;
  // Determinism with the model.
  EXPECT_EQ(json.out, run(json_args + model).out);
  // CSV: the _total row carries the JSON's total_mj and work_ns (fields 26 and 27); task rows
  // leave them empty, as does every row without a model.
  const std::string csv_args = "run --scenario kernbench-4cpu --policy eevdf --duration 300ms --format csv --no-host-timing";
  const result csv = run(csv_args + " --energy-model " + model);
  ASSERT_EQ(csv.code, 0);
  const auto json_field = [&](const char* key) {
    const auto at = json.out.find(std::string("\"energy\": { \"total_mj\": "));
    const auto k = json.out.find(std::string("\"") + key + "\": ", at);
    const auto from = k + std::strlen(key) + 4;
    return json.out.substr(from, json.out.find_first_of(",}", from) - from);
  };
  const std::string total = csv.out.substr(csv.out.find("eevdf,kernbench-4cpu,_total,"));
  const std::string want = "," + json_field("total_mj") + "," + json_field("work_ns") + ",";
  EXPECT_NE(total.find(want), std::string::npos) << total << " lacks " << want;
  EXPECT_NE(csv.out.find(",energy_mj,work_ns,seed\n"), std::string::npos);
  const result no_model = run(csv_args);
  const std::string plain = no_model.out.substr(no_model.out.find("eevdf,kernbench-4cpu,_total,"));
  EXPECT_NE(plain.find(",,,"), std::string::npos) << plain;
  // Agreeing repetitions are fine; disagreement is a usage error.
  EXPECT_EQ(run("run --scenario kernbench-4cpu --duration 100ms --cpus 6 --capacity 446,446,446,446,1024,1024 --energy-model " + model).code, 0);
  const result cpus = run("run --scenario kernbench-4cpu --cpus 4 --energy-model " + model, " 2>&1");
  EXPECT_EQ(cpus.code, 2);
  EXPECT_NE(cpus.out.find("--energy-model's domains hold 6 CPUs but --cpus is 4"), std::string::npos) << cpus.out;
  const result caps = run("run --scenario kernbench-4cpu --capacity 1024,1024,1024,1024,1024,1024 --energy-model " + model, " 2>&1");
  EXPECT_EQ(caps.code, 2);
  EXPECT_NE(caps.out.find("--capacity disagrees"), std::string::npos) << caps.out;
  // Bad files: exit 3 with the place.
  const std::string bad = std::string(SCHEDSIM_TMP) + "/bad-energy-model.json";
  {
    std::ofstream f(bad);
    f << "{ \"domains\": [ { \"cpus\": 2, \"capacity\": 1024,\n  \"states\": [ { \"khz\": 0, \"uw\": 5 } ] } ] }\n";
  }
  const result b = run("run --scenario kernbench-4cpu --energy-model " + bad, " 2>&1");
  EXPECT_EQ(b.code, 3);
  EXPECT_NE(b.out.find(bad + ":2:24: 'khz' must be an integer in 1..4294967295, not 0"), std::string::npos) << b.out;
  const result missing = run("run --scenario kernbench-4cpu --energy-model /nonexistent/em.json", " 2>&1");
  EXPECT_EQ(missing.code, 3);
  EXPECT_NE(missing.out.find("/nonexistent/em.json: cannot open"), std::string::npos) << missing.out;
  EXPECT_EQ(run("run --scenario kernbench-4cpu --energy-model").code, 2);  // no value
  EXPECT_EQ(run("run --scenario kernbench-4cpu --duration 100ms --util-est off --eas off --energy-model " + model).code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --duration 100ms --util-est on --capacity 1024,446").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --util-est maybe").code, 2);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --eas 1").code, 2);
  // The RT default boost: 0 lets an RT task's frequency follow its CPU's fair util (less
  // energy than the default's top frequency); out of range is a usage error.
  const std::string rt_file = ::testing::TempDir() + "/rt.json";
  {
    std::ofstream f(rt_file);
    f << R"({"global": {"duration": 1}, "tasks": {"rt": {"policy": "SCHED_FIFO", "run": 2000, "timer": {"ref": "t", "period": 20000}}}})";
  }
  const result top = run("run --rt-app " + rt_file + " --policy cfs --format json --energy-model " + model);
  const result low = run("run --rt-app " + rt_file + " --policy cfs --format json --uclamp-rt-min 0 --energy-model " + model);
  ASSERT_EQ(top.code, 0);
  ASSERT_EQ(low.code, 0);
  auto total_mj = [](const std::string& text) {
    const auto at = text.find("\"total_mj\": ");
    return at == std::string::npos ? -1.0 : std::stod(text.substr(at + 12));
  };
  EXPECT_GT(total_mj(top.out), 0.0) << top.out;
  EXPECT_GT(total_mj(low.out), 0.0) << low.out;  // -1: no energy block at all
  EXPECT_LT(total_mj(low.out), total_mj(top.out) * 0.8);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --uclamp-rt-min 1025").code, 2);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --duration 100ms --iowait-boost off --energy-model " + model).code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --iowait-boost sometimes").code, 2);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --uclamp-rt-min").code, 2);
}

// --capacity in the JSON: the list, and the misfit moves among the totals; absent without it.
TEST(SchedsimCli, CapacityListShowsInTheJson) {
  const result asym = run("run --scenario kernbench-4cpu --policy cfs --duration 300ms --format json --capacity 1024,446,446");
  ASSERT_EQ(asym.code, 0);
  EXPECT_NE(asym.out.find("\"cpus\": 3,"), std::string::npos);
  EXPECT_NE(asym.out.find("\"capacity\": [1024, 446, 446]"), std::string::npos) << asym.out.substr(0, 400);
  EXPECT_NE(asym.out.find("\"misfit_moves\": "), std::string::npos);
  const result plain = run("run --scenario kernbench-4cpu --policy cfs --duration 300ms --format json");
  ASSERT_EQ(plain.code, 0);
  EXPECT_EQ(plain.out.find("\"capacity\""), std::string::npos);
  EXPECT_EQ(plain.out.find("misfit_moves"), std::string::npos);
}

// Output that cannot be written whole (a full disk: /dev/full) is an error, exit 2 with a
// message, never a success with a truncated table or JSON document.
TEST(SchedsimCli, UnwritableStdoutIsAnError) {
  const result list = run("list", " 2>&1 >/dev/full");
  EXPECT_EQ(list.code, 2);
  EXPECT_NE(list.out.find("cannot write the output (stdout)"), std::string::npos) << list.out;
  const result json = run("run --scenario desktop-2007 --duration 200ms --format json", " 2>&1 >/dev/full");
  EXPECT_EQ(json.code, 2);
  EXPECT_NE(json.out.find("cannot write the output (stdout)"), std::string::npos) << json.out;
  EXPECT_EQ(run("run --scenario desktop-2007 --duration 200ms --format json >/dev/null").code, 0);
}

// A combination of knobs the policy refuses (each within its bounds): exit 2, and the message
// names the condition from the knob's help; with the condition met, the run goes.
TEST(SchedsimCli, RefusedKnobCombinationNamesItsCondition) {
  const result bad = run("run --scenario eevdf-slices/custom --policy eevdf:wakeup_619=1 --duration 100ms", " 2>&1");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("'wakeup_619': Needs parity_min_slice=1"), std::string::npos) << bad.out;
  EXPECT_EQ(run("run --scenario eevdf-slices/custom --policy eevdf:wakeup_619=1,parity_min_slice=1 --duration 100ms").code, 0);
}

// A machine parameter inside the command line's range but outside a policy's own knob range
// (o1's hz is 10..100000): exit 2 naming the policy, the parameter and the range.
TEST(SchedsimCli, MachineParameterOutsideAPolicysRangeIsNamed) {
  const result bad = run("run --scenario desktop-2007 --policy o1 --hz 5 --duration 100ms", " 2>&1");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("--hz 5 is outside o1's hz range [10, 100000]"), std::string::npos) << bad.out;
  EXPECT_EQ(run("run --scenario desktop-2007 --policy o1 --hz 10 --duration 100ms").code, 0);
}

// A policy that refuses a task's parameters (nicksched has no SCHED_BATCH) is the policy's
// limit, not the file's: compare over the default rows leaves its row out with a note naming
// the policy and the task; asked for by name (--policies, run --policy) it is an error (exit 3)
// that names them too.
TEST(SchedsimCli, APolicyThatRefusesATaskIsLeftOutOfTheDefaultRows) {
  const std::string path = ::testing::TempDir() + "schedsim_batch.json";
  {
    std::ofstream f(path);
    f << "{ \"global\": { \"duration\": 1 }, \"tasks\": { \"b\": { \"policy\": \"SCHED_BATCH\", \"loop\": -1, "
         "\"run\": 1000, \"sleep\": 1000 }, \"h\": { \"loop\": -1, \"run\": 2000 } } }\n";
  }
  const result c = run("compare --rt-app " + path + " --duration 100ms --no-host-timing", " 2>&1");
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("note: row left out:"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("task 'b-0': the policy refused its scheduling parameters (batch"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("under nicksched"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("\neevdf "), std::string::npos) << "the other rows ran: " << c.out;
  EXPECT_EQ(c.out.find("\nnicksched "), std::string::npos) << c.out;
  const result named = run("compare --rt-app " + path + " --policies cfs,nicksched --duration 100ms --no-host-timing", " 2>&1");
  EXPECT_EQ(named.code, 3) << named.out;
  EXPECT_NE(named.out.find("under nicksched"), std::string::npos) << named.out;
  EXPECT_EQ(run("run --rt-app " + path + " --policy nicksched --duration 100ms --no-host-timing").code, 3);
  std::remove(path.c_str());
  // The same when a phase switches to SCHED_BATCH at 2 ms (the policy used to keep the task
  // SCHED_NORMAL without a word, under goodness24 too).
  const std::string phased = ::testing::TempDir() + "schedsim_batch_phase.json";
  {
    std::ofstream f(phased);
    f << "{ \"global\": { \"duration\": 1 }, \"tasks\": { \"x\": { \"loop\": 1, \"phases\": {"
         " \"a\": { \"run\": 2000 }, \"b\": { \"policy\": \"SCHED_BATCH\", \"loop\": -1, \"run\": 1000, \"sleep\": 1000 } } },"
         " \"h\": { \"loop\": -1, \"run\": 2000 } } }\n";
  }
  for (const char* refuser : {"nicksched", "goodness24"}) {
    const result r = run("run --rt-app " + phased + " --policy " + refuser + " --duration 100ms --no-host-timing", " 2>&1");
    EXPECT_EQ(r.code, 3) << refuser << ": " << r.out;
    EXPECT_NE(r.out.find("task 'x-0': at 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("in a change of its parameters: the policy refused its scheduling parameters (batch"), std::string::npos)
        << r.out;
  }
  const result pc = run("compare --rt-app " + phased + " --duration 100ms --no-host-timing", " 2>&1");
  ASSERT_EQ(pc.code, 0) << pc.out;
  EXPECT_NE(pc.out.find("note: row left out:"), std::string::npos) << pc.out;
  EXPECT_EQ(pc.out.find("\nnicksched "), std::string::npos) << pc.out;
  EXPECT_EQ(pc.out.find("\ngoodness24 "), std::string::npos) << pc.out;
  EXPECT_NE(pc.out.find("\ncfs "), std::string::npos) << pc.out;
  std::remove(phased.c_str());
}

// rt-app's slack in the compare table and the run table: one task alone, 12 ms of work every
// 10 ms for 4 periods (relative timer): 3 overruns of 2 ms each (sim_engine_test computes the
// same by hand); a task without a timer leaves the columns out of the run table.
// `--rt-app -` reads the file from standard input: the same run as from the file, named
// <stdin>; its errors name <stdin> with line and column (exit 3).
TEST(SchedsimCli, RtAppFromStandardInput) {
  const std::string name = "schedsim_stdin.json";
  const std::string path = ::testing::TempDir() + name;
  {
    std::ofstream f(path);
    f << "{ \"tasks\": { \"t\": { \"loop\": 3, \"run\": 2000, \"sleep\": 3000 },\n"
         "  \"u\": { \"priority\": 5, \"run\": 1000000 } }, \"global\": { \"duration\": 1 } }\n";
  }
  const std::string args = "run --policy cfs --format json --no-host-timing --rt-app ";
  const result from_file = run(args + path);
  const result from_stdin = run(args + "- < " + path);
  ASSERT_EQ(from_file.code, 0) << from_file.out;
  ASSERT_EQ(from_stdin.code, 0) << from_stdin.out;
  std::string renamed = from_stdin.out;
  const std::string stdin_name = "\"<stdin>\"";
  const std::size_t at = renamed.find(stdin_name);
  ASSERT_NE(at, std::string::npos) << from_stdin.out;
  renamed.replace(at, stdin_name.size(), "\"" + name + "\"");
  EXPECT_EQ(renamed, from_file.out);
  const result bad = schedsim_cli::run_shell("printf '{ \"tasks\": {\\n  \"t\": [ }' | " + std::string(SCHEDSIM_BIN) + " run --rt-app - 2>&1");
  EXPECT_EQ(bad.code, 3);
  EXPECT_EQ(bad.out.rfind("schedsim: <stdin>:2:", 0), 0u) << bad.out;
}

TEST(SchedsimCli, RtAppSlackColumns) {
  const std::string path = ::testing::TempDir() + "schedsim_slack.json";
  {
    std::ofstream f(path);
    f << "{ \"tasks\": { \"late\": { \"loop\": 4, \"timer\": { \"ref\": \"t\", \"period\": 10000 }, "
         "\"run\": 12000 } }, \"global\": { \"duration\": 1 } }\n";
  }
  const result c = run("compare --rt-app " + path + " --policies ref-rr --cs-cost 0 --refill 0 --no-host-timing");
  ASSERT_EQ(c.code, 0) << c.out;
  std::istringstream lines(c.out);
  std::string header, rule, row;
  std::getline(lines, header);  // "== file (cpus ...) =="
  std::getline(lines, header);
  std::getline(lines, rule);
  std::getline(lines, row);
  EXPECT_NE(header.find("overruns"), std::string::npos) << c.out;
  std::istringstream cells(row);
  std::vector<std::string> v;
  for (std::string x; cells >> x;) v.push_back(x);
  ASSERT_GE(v.size(), 2u) << row;
  EXPECT_EQ(v[v.size() - 2], "3") << row;
  EXPECT_EQ(v.back(), "-2.000") << row;
  const result r = run("run --rt-app " + path + " --policy ref-rr --cs-cost 0 --refill 0 --no-host-timing");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("slack min ms"), std::string::npos) << r.out;
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy ref-rr --duration 100ms").out.find("slack"), std::string::npos);
  std::remove(path.c_str());
}

// The CSV has what the run table has for rt-app workloads: a timer-driven task's slack and a
// SCHED_FLAG_DL_OVERRUN task's SIGXCPU count, empty (not 0) for the tasks they do not apply to.
// On 4 CPUs with free switches each task has a CPU: `late` works 12 ms every 10 ms for 4
// periods (3 overruns of 2 ms, as RtAppSlackColumns), the 2 ms / 10 ms deadline hog is throttled
// at each period's 2 ms tick for 1 s (100 signals, as SimDeadlineOverrun's), `plain` has neither.
TEST(SchedsimCli, CsvHasTheSlackAndOverrunSignalColumns) {
  const std::string path = ::testing::TempDir() + "schedsim_csv_slack.json";
  {
    std::ofstream f(path);
    f << "{ \"global\": { \"duration\": 1 }, \"tasks\": {"
         " \"late\": { \"loop\": 4, \"timer\": { \"ref\": \"t\", \"period\": 10000 }, \"run\": 12000 },"
         " \"hog\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 10000,"
         " \"dl-overrun\": true, \"loop\": -1, \"run\": 100000 },"
         " \"plain\": { \"loop\": -1, \"run\": 100000 } } }\n";
  }
  const std::string args = "run --rt-app " + path + " --policy cfs --cpus 4 --cs-cost 0 --refill 0 --no-host-timing";
  const result c = run(args + " --format csv");
  ASSERT_EQ(c.code, 0) << c.out;
  std::istringstream in(c.out);
  std::string header, line;
  ASSERT_TRUE(std::getline(in, header));
  // Fields by header name (no field here is quoted).
  const auto split = [](const std::string& s) {
    std::vector<std::string> v;
    std::string x;
    std::istringstream cells(s);
    while (std::getline(cells, x, ',')) v.push_back(x);
    if (!s.empty() && s.back() == ',') v.emplace_back();
    return v;
  };
  const std::vector<std::string> names = split(header);
  for (const char* col : {"slack_periods", "slack_overruns", "slack_min_ns", "slack_p50_ns", "sigxcpu"})
    ASSERT_NE(std::find(names.begin(), names.end(), col), names.end()) << "no column " << col << " in " << header;
  const auto column = [&](const char* name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  std::map<std::string, std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> v = split(line);
    ASSERT_EQ(v.size(), names.size()) << line;
    rows[v[2]] = v;
  }
  ASSERT_EQ(rows.count("late-0") + rows.count("hog-0") + rows.count("plain-0") + rows.count("_total"), 4u) << c.out;
  const std::vector<std::string>& late = rows["late-0"];
  EXPECT_EQ(late[column("slack_periods")], "3");
  EXPECT_EQ(late[column("slack_overruns")], "3");
  EXPECT_EQ(late[column("slack_min_ns")], "-2000000");
  EXPECT_EQ(late[column("sigxcpu")], "") << "it did not ask for overrun signals";
  const std::vector<std::string>& hog = rows["hog-0"];
  EXPECT_EQ(hog[column("sigxcpu")], "100");
  EXPECT_EQ(hog[column("slack_periods")], "") << "no timer";
  for (const char* name : {"plain-0", "_total"})
    for (const char* col : {"slack_periods", "slack_overruns", "slack_min_ns", "slack_p50_ns", "sigxcpu"})
      EXPECT_EQ(rows[name][column(col)], "") << name << " " << col;
  // The same numbers as the JSON's.
  const result j = run(args + " --format json");
  ASSERT_EQ(j.code, 0);
  EXPECT_NE(j.out.find("\"periods\": 3, \"overruns\": 3, \"min\": -2000000, \"p50\": " + late[column("slack_p50_ns")] + " }"),
            std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"sigxcpu\": 100"), std::string::npos) << j.out;
  std::remove(path.c_str());
}

// compare and sweep print a JSON array even for one row; run prints the run's object.
TEST(SchedsimCli, CompareAndSweepJsonIsAnArrayEvenForOneRow) {
  const result c = run("compare --scenario games-renice/xnice0 --policies ref-rr --duration 200ms --format json --no-host-timing");
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_EQ(c.out.front(), '[');
  const result s = run("sweep --scenario games-renice/xnice0 --policy ref-rr --knob timeslice=2ms --duration 200ms "
                       "--format json --no-host-timing");
  ASSERT_EQ(s.code, 0) << s.out;
  EXPECT_EQ(s.out.front(), '[');
  const result r = run("run --scenario games-renice/xnice0 --policy ref-rr --duration 200ms --format json --no-host-timing");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.front(), '{');
}

// A policy written outside the library (examples/custom-policy/stride.hpp, registered with one
// SCHEDSIM_NAMED_POLICY file) runs by name: two hogs at nice 0 and 5 (stride tickets 1024 and 335)
// for 10 s with free switches get CPU in the ratio of their tickets, within one quantum (the
// stride paper's relative error bound), at the default 10 ms quantum and at 1 ms. It is named
// only: compare's default rows leave it out, so the default outputs do not change with it.
TEST(SchedsimCli, TheCustomPolicyExampleRunsByNameAndSharesByTickets) {
  const std::string path = ::testing::TempDir() + "schedsim_stride.json";
  {
    std::ofstream f(path);
    f << "{ \"global\": { \"duration\": 10 }, \"tasks\": { \"a\": { \"priority\": 0, \"loop\": -1, \"run\": 100000 }, "
         "\"b\": { \"priority\": 5, \"loop\": -1, \"run\": 100000 } } }\n";
  }
  const result c = run("compare --rt-app " + path + " --policies stride,stride:quantum=1ms --cs-cost 0 --refill 0 "
                       "--format json --no-host-timing");
  ASSERT_EQ(c.code, 0) << c.out;
  namespace json = schedcore::sim::json;
  const json::value doc = json::parse(c.out);
  ASSERT_EQ(doc.items.size(), 2u) << c.out;
  const double quantum_ns[2] = {10e6, 1e6};
  for (std::size_t row = 0; row < 2; ++row) {
    const json::value& r = doc.items[row];
    const json::value* tasks = r.find("tasks");
    ASSERT_TRUE(tasks != nullptr && tasks->items.size() == 2u) << c.out;
    const double a = tasks->items[0].find("cpu_ns")->d, b = tasks->items[1].find("cpu_ns")->d;
    EXPECT_EQ(a + b, 10e9) << "one CPU, no switch cost: every ns goes to a task";
    EXPECT_LE(std::fabs(a - 10e9 * 1024.0 / 1359.0), quantum_ns[row]) << r.find("policy")->s << ": a got " << a;
  }
  const result defaults = run("compare --rt-app " + path + " --duration 200ms --no-host-timing");
  ASSERT_EQ(defaults.code, 0) << defaults.out;
  EXPECT_EQ(defaults.out.find("\nstride "), std::string::npos) << defaults.out;
  EXPECT_EQ(defaults.out.find("\nmlfq "), std::string::npos) << "every SCHEDSIM_NAMED_POLICY is named only";
  EXPECT_NE(defaults.out.find("\ncfs "), std::string::npos) << defaults.out;
  std::remove(path.c_str());
}

// bfs's `hrexpiry` (MuQSS's slice-end hrtimer) reaches the engine as a class timer: at HZ 250
// nice 0 against nice 5 splits 80 / 20 as at HZ 1000 (policy-bfs.md, §5's oracle), while slices
// that end at ticks last 8 ms and split 75 / 25.
TEST(SchedsimCli, BfsHrexpiryEndsSlicesBetweenTicks) {
  const std::string path = scratch_file("schedsim_bfs_hrexpiry.json",
                                        "{ \"global\": { \"duration\": 30 }, \"tasks\": {"
                                        " \"a\": { \"priority\": 0, \"loop\": -1, \"run\": 100000 },"
                                        " \"b\": { \"priority\": 5, \"loop\": -1, \"run\": 100000 } } }\n");
  const result c = run("compare --rt-app " + path + " --policies bfs,bfs:hrexpiry=1 --hz 250 --cs-cost 0 --refill 0 "
                       "--format json --no-host-timing");
  ASSERT_EQ(c.code, 0) << c.out;
  namespace json = schedcore::sim::json;
  const json::value doc = json::parse(c.out);
  ASSERT_EQ(doc.items.size(), 2u) << c.out;
  const double nice0_share[2] = {0.75, 0.80};
  for (std::size_t row = 0; row < 2; ++row) {
    const json::value* tasks = doc.items[row].find("tasks");
    ASSERT_TRUE(tasks != nullptr && tasks->items.size() == 2u) << c.out;
    const double a = tasks->items[0].find("cpu_ns")->d, b = tasks->items[1].find("cpu_ns")->d;
    EXPECT_EQ(a + b, 30e9);
    EXPECT_NEAR(a / 30e9, nice0_share[row], 0.005) << doc.items[row].find("policy")->s;
  }
  std::remove(path.c_str());
}

// rt-app's taskgroup (a path in the cpu cgroup hierarchy) is group scheduling under cfs and
// eevdf. Oracle, cgroup v2's weights (every group 100): /user holds /user/make (4 hogs) and
// /user/video (player); mover starts in the root beside /user and, at its second phase (after
// 1 s of CPU), moves into /user/video. So for 2 s the root splits 1:1 between mover and /user
// (make 0.5 s, player 0.5 s); then /user has the whole CPU for 2 s: make 1 s, video 1 s split
// by player and mover. Totals: each build 0.375 s, player 1 s, mover 1.5 s. A policy without
// groups (o1) runs the six tasks flat; a malformed path is refused with its location.
TEST(SchedsimCli, RtAppTaskgroupsAreTaskGroupsUnderCfsAndEevdf) {
  const std::string path = ::testing::TempDir() + "schedsim_taskgroup.json";
  {
    std::ofstream f(path);
    f << "{ \"global\": { \"duration\": 4 }, \"tasks\": {\n"
         "  \"build\": { \"instance\": 4, \"taskgroup\": \"/user/make\", \"loop\": -1, \"run\": 10000 },\n"
         "  \"player\": { \"taskgroup\": \"/user/video\", \"loop\": -1, \"run\": 10000 },\n"
         "  \"mover\": { \"phases\": { \"p0\": { \"loop\": 100, \"run\": 10000 },\n"
         "                         \"p1\": { \"taskgroup\": \"/user/video\", \"loop\": -1, \"run\": 10000 } } } } }\n";
  }
  const result c = run("compare --rt-app " + path + " --policies cfs,eevdf,o1 --cs-cost 0 --refill 0 --format json --no-host-timing");
  ASSERT_EQ(c.code, 0) << c.out;
  namespace json = schedcore::sim::json;
  const json::value doc = json::parse(c.out);
  ASSERT_EQ(doc.items.size(), 3u) << c.out;
  const double expect_s[] = {0.375, 0.375, 0.375, 0.375, 1.0, 1.5};
  for (std::size_t row = 0; row < 2; ++row) {
    const json::value* tasks = doc.items[row].find("tasks");
    ASSERT_TRUE(tasks != nullptr && tasks->items.size() == 6u) << c.out;
    for (std::size_t i = 0; i < 6; ++i)
      EXPECT_NEAR(tasks->items[i].find("cpu_ns")->d / 1e9, expect_s[i], 0.01)
          << doc.items[row].find("policy")->s << " " << tasks->items[i].find("name")->s;
  }
  const json::value* flat = doc.items[2].find("tasks");  // o1: no groups, six tasks of one CPU
  ASSERT_TRUE(flat != nullptr && flat->items.size() == 6u);
  EXPECT_LT(flat->items[5].find("cpu_ns")->d / 1e9, 1.0) << "mover gets a sixth, not half, without groups";
  {
    std::ofstream f(path);
    f << "{ \"tasks\": { \"t\": { \"taskgroup\": \"/a//b\", \"run\": 1000 } } }\n";
  }
  const result bad = run("run --rt-app " + path + " --policy cfs", " 2>&1");
  EXPECT_EQ(bad.code, 3) << bad.out;
  EXPECT_NE(bad.out.find(path + ":1:"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("empty component"), std::string::npos) << bad.out;
  std::remove(path.c_str());
}

// rt-app's taskgroup edge cases (rt-app_parse_config.c, parse_taskgroup_data): a phase-level
// "" is no taskgroup data, so the task stays where it is (it does not move to the root); a
// path must start with '/' (rt-app exits with EXIT_INV_CONFIG); a path deeper than the
// hierarchy can hold is refused at its position, for every policy.
TEST(SchedsimCli, RtAppTaskgroupEdgeCases) {
  const std::string path = ::testing::TempDir() + "schedsim_taskgroup_edges.json";
  auto write = [&](const std::string& text) {
    std::ofstream f(path);
    f << text;
  };
  namespace json = schedcore::sim::json;
  // m alternates p0 (no taskgroup) and p1 (taskgroup ""): it stays in /g with h1, so the
  // root's two entities, /g and h2, split the CPU: m and h1 a quarter each, h2 half.
  write("{ \"global\": { \"duration\": 2 }, \"tasks\": {\n"
        "  \"m\": { \"taskgroup\": \"/g\", \"loop\": -1, \"phases\": { \"p0\": { \"run\": 1000 },\n"
        "                                          \"p1\": { \"taskgroup\": \"\", \"run\": 1000 } } },\n"
        "  \"h1\": { \"taskgroup\": \"/g\", \"loop\": -1, \"run\": 1000 },\n"
        "  \"h2\": { \"loop\": -1, \"run\": 1000 } } }\n");
  for (const char* policy : {"cfs", "eevdf"}) {
    const result r = run("run --rt-app " + path + " --policy " + policy + " --cs-cost 0 --refill 0 --format json --no-host-timing");
    ASSERT_EQ(r.code, 0) << r.out;
    const json::value doc = json::parse(r.out);
    const json::value* tasks = doc.find("tasks");
    ASSERT_TRUE(tasks != nullptr && tasks->items.size() == 3u) << r.out;
    EXPECT_NEAR(tasks->items[0].find("cpu_ns")->d / 1e9, 0.5, 0.02) << policy << ": m left /g";
    EXPECT_NEAR(tasks->items[2].find("cpu_ns")->d / 1e9, 1.0, 0.02) << policy;
  }
  write("{ \"tasks\": { \"t\": {\n  \"taskgroup\": \"tg1\", \"run\": 1000 } } }\n");
  const result rel = run("run --rt-app " + path + " --policy cfs", " 2>&1");
  EXPECT_EQ(rel.code, 3) << rel.out;
  EXPECT_NE(rel.out.find(path + ":2:"), std::string::npos) << rel.out;
  EXPECT_NE(rel.out.find("start with '/'"), std::string::npos) << rel.out;
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "/d" + std::to_string(i);
  write("{ \"tasks\": { \"t\": {\n  \"taskgroup\": \"" + deep + "\", \"run\": 1000 } } }\n");
  for (const char* policy : {"cfs", "o1"}) {
    const result r = run("run --rt-app " + path + " --policy " + policy + " --duration 10ms", " 2>&1");
    EXPECT_EQ(r.code, 3) << policy << ": " << r.out;
    EXPECT_NE(r.out.find(path + ":2:"), std::string::npos) << policy << ": " << r.out;
  }
  std::remove(path.c_str());
}

// rt-app refuses task groups on real-time threads ("No taskgroup support for policy"), at task
// or phase level, whichever comes first; so does the importer, at the taskgroup's position.
TEST(SchedsimCli, RtAppTaskgroupOnARealTimeTaskIsRefused) {
  const std::string path = ::testing::TempDir() + "schedsim_taskgroup_rt.json";
  const char* files[] = {
      "{ \"tasks\": { \"t\": { \"policy\": \"SCHED_FIFO\", \"priority\": 10,\n \"taskgroup\": \"/g\", \"run\": 1000 } } }\n",
      "{ \"tasks\": { \"t\": { \"taskgroup\": \"/g\", \"phases\": {\n \"a\": { \"run\": 1000 },\n"
      " \"b\": { \"policy\": \"SCHED_RR\", \"run\": 1000 } } } } }\n",
  };
  for (const char* text : files) {
    {
      std::ofstream f(path);
      f << text;
    }
    const result r = run("run --rt-app " + path + " --policy cfs", " 2>&1");
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_NE(r.out.find("No taskgroup support for policy"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(path + ":"), std::string::npos) << r.out;
  }
  {
    std::ofstream f(path);  // SCHED_IDLE and BATCH are fine, and "" is no taskgroup at all
    f << "{ \"tasks\": { \"t\": { \"policy\": \"SCHED_IDLE\", \"taskgroup\": \"/g\", \"run\": 1000 },\n"
         " \"u\": { \"policy\": \"SCHED_FIFO\", \"taskgroup\": \"\", \"run\": 1000 } } }\n";
  }
  const result ok = run("run --rt-app " + path + " --policy cfs", " 2>&1");
  EXPECT_EQ(ok.code, 0) << ok.out;
  std::remove(path.c_str());
}

// eevdf's delayed dequeue (6.12+, on in every kernel since) works inside task groups: the
// autogroup scenario runs with the 6.12+ features and keeps its direction, with the books exact.
TEST(SchedsimCli, DelayedDequeueRunsInsideTaskGroups) {
  const result r = run("compare --scenario autogroup/on --policies eevdf:delay_dequeue=1,place_rel_deadline=1,preempt_short=1 "
                       "--format json --no-host-timing", " 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  namespace json = schedcore::sim::json;
  const json::value doc = json::parse(r.out);
  const json::value& run0 = doc.items.empty() ? doc : doc.items[0];
  const json::value* tasks = run0.find("tasks");
  ASSERT_TRUE(tasks != nullptr);
  double cpu = 0, pert = 0;
  for (const json::value& t : tasks->items) {
    cpu += t.find("cpu_ns")->d;
    if (t.find("name")->s == "pert") pert = t.find("cpu_ns")->d;
  }
  const json::value* totals = run0.find("totals");
  EXPECT_EQ(cpu + totals->find("overhead_ns")->d + totals->find("idle_ns")->d, 20e9);
  EXPECT_GT(pert / 20e9, 0.3) << "the hog's session still gets its share of the rest";
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
  EXPECT_NE(c.out.find(",events,energy_mj,work_ns,seed\n"), std::string::npos);  // every row ends with its run's seed
  EXPECT_NE(c.out.find("ref-rr:timeslice=1ms,kernbench-4cpu,_total"), std::string::npos);
  EXPECT_NE(c.out.find("ref-rr:timeslice=100ms,kernbench-4cpu,_total"), std::string::npos);
}

// Fields of one CSV line (RFC 4180 quoting: a quoted field may hold commas and "" for a quote).
std::size_t csv_fields(const std::string& line) {
  std::size_t n = 1;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;  // "" toggles twice: still inside
    else if (c == ',' && !quoted) ++n;
  }
  return n;
}

// Every CSV row, the task rows and the per-run _total row, has as many fields as the header,
// for run, compare and sweep; a policy spec with a comma in it is one (quoted) field.
TEST(SchedsimCli, CsvRowsHaveTheHeadersFieldCount) {
  for (const std::string args :
       {"run --scenario kernbench-4cpu --policy cfs --duration 1s",
        "compare --scenario kernbench-4cpu --policies ref-rr,cfs:latency=6ms,min_granularity=1ms --duration 200ms",
        "sweep --scenario games-renice/xnice0 --policy cfs:latency=6ms --knob min_granularity=1ms,2ms --duration 200ms"}) {
    const result c = run(args + " --format csv --no-host-timing");
    ASSERT_EQ(c.code, 0) << args;
    std::istringstream in(c.out);
    std::string header, line;
    ASSERT_TRUE(std::getline(in, header)) << args;
    const std::size_t want = csv_fields(header);
    EXPECT_EQ(want, 28u);
    int tasks = 0, totals = 0;
    while (std::getline(in, line)) {
      EXPECT_EQ(csv_fields(line), want) << args << "\n" << line;
      (line.find(",_total,") != std::string::npos ? totals : tasks) += 1;
    }
    EXPECT_GT(tasks, 0) << args;
    EXPECT_GT(totals, 0) << args;
  }
  // The _total row's task_cpu_ns sits under the header's cpu_ns (the 5th field).
  const result r = run("run --scenario kernbench-4cpu --policy ref-rr --duration 1s --format csv --no-host-timing");
  const std::size_t at = r.out.find("ref-rr,kernbench-4cpu,_total,,");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(r.out[at + std::string("ref-rr,kernbench-4cpu,_total,,").size()])))
      << r.out.substr(at, 80);
}

// Options given twice (the second value silently replaced the first: a sweep's second --knob
// swept only it, a second --rt-app ran only that file), seeds past run --seed's range, more
// runs than fit in memory (a million took 2.8 GB), and SMT threads of one core with different
// capacities are usage errors, refused before anything runs. --partition and --cpu-max repeat,
// one item each, but not one group twice.
TEST(SchedsimCli, RepeatedOptionsSeedOverflowRunCapAndUnevenCoresAreUsageErrors) {
  const auto usage = [](const std::string& args, const std::string& message) {
    const result r = run(args, " 2>&1 >/dev/null");
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
  };
  const std::string rt = std::string(SCHEDCORE_EXAMPLES_DIR) + "/rt-app/";
  usage("sweep --scenario kernbench-4cpu --policy cfs --knob latency=6ms --knob min_granularity=1ms",
        "--knob given twice");
  usage("run --rt-app " + rt + "priority-inversion.json --rt-app " + rt + "deadline-inheritance.json", "--rt-app given twice");
  usage("run --scenario kernbench-4cpu --duration 1s --duration 2s", "--duration given twice");
  usage("run --scenario kernbench-4cpu --trace a.txt --trace b.txt", "--trace given twice");
  usage("run --scenario kernbench-4cpu --cpu-max /tg1=50ms/100ms --cpu-max /tg1=60ms/100ms",
        "--cpu-max: group '/tg1' given twice");
  usage("compare --scenario kernbench-4cpu --policies cfs --seed 9223372036854775807 --seeds 2",
        "runs seeds beyond 9223372036854775807");
  usage("sweep --scenario kernbench-4cpu --policy cfs --knob latency=6ms,7ms,8ms,9ms,10ms,11ms,12ms,13ms,14ms,15ms,16ms --seeds 10000",
        "11 runs x 10000 seeds = 110000 runs, more than 100000");
  usage("run --scenario kernbench-4cpu --smt 2 --capacity 1024,512", "--smt 2: CPU 1 is a thread of the core of CPU 0");
  usage("list --policy nope", "list takes no options ('--policy' given)");
  usage("run --scenario kernbench-4cpu --cpus 3 --partition -1", "--partition: bad CPU list item '-1' in '-1'");
  usage("run --scenario kernbench-4cpu --cpus 3 --partition 1-", "--partition: bad CPU list item '1-'");
  // Knobs each in range but refused together name the rule they break (was: "parameters
  // inverted" alone).
  usage("run --scenario kernbench-4cpu --policy cfs:latency=100us", "'latency': Needs latency >= min_granularity");
  usage("run --scenario kernbench-4cpu --policy cfs2007:min_granularity=30ms", "'min_granularity': Needs min_granularity <= latency");
  // What may repeat still does, and the last seed that run takes is fine.
  EXPECT_EQ(run("compare --scenario kernbench-4cpu --policies ref-rr --duration 100ms --seed 9223372036854775806 --seeds 2").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy ref-rr --duration 100ms --cpus 4 --partition 1 --partition 2-3").code, 0);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy eevdf --duration 100ms --smt 2 --capacity 512,512,1024,1024").code, 0);
}

// An rt-app file without a global duration runs 10 s, with a note under the table saying so and
// how to change it; given --duration, the note (which said "capped at 10 s" for a 10 ms run) is not printed.
TEST(SchedsimCli, TheDefaultDurationNoteOnlyWhenNoDurationIsGiven) {
  const std::string file = scratch_file("no-global-duration.json", "{\"tasks\": {\"t\": {\"run\": 1000, \"sleep\": 1000}}}\n");
  const result plain = run("run --rt-app " + file + " --policy cfs", " 2>&1");
  EXPECT_EQ(plain.code, 0) << plain.out;
  EXPECT_NE(plain.out.find("global duration -1 or absent"), std::string::npos) << plain.out;
  const result given = run("run --rt-app " + file + " --policy cfs --duration 10ms", " 2>&1");
  EXPECT_EQ(given.code, 0) << given.out;
  EXPECT_EQ(given.out.find("global duration"), std::string::npos) << given.out;
}

// Unlocking a mutex the task does not hold is ignored, as an error-checking mutex's EPERM, and
// said under the table: two tasks that each unlock the other's mutex deadlocked with 100 % idle
// and no word.
TEST(SchedsimCli, AnUnlockOfAMutexNotHeldIsNoted) {
  const std::string file = scratch_file("foreign-unlock.json",
                                        "{\"global\": {\"duration\": 1}, \"tasks\": {\"t\": {\"lock\": \"m\", \"unlock\": \"n\", \"run\": 1000},\n"
                                        "                  \"u\": {\"lock\": \"n\", \"unlock\": \"m\", \"run\": 1}}}\n");
  const result r = run("run --rt-app " + file + " --policy cfs --duration 10ms", " 2>&1");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("note: task 't-0' unlocked mutex 'n', which it did not hold, 1 time: ignored"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: task 'u-0' unlocked mutex 'm', which it did not hold, 1 time: ignored"), std::string::npos) << r.out;
  // A file that pairs its locks says nothing of the kind.
  const result ok = run("run --rt-app " + std::string(SCHEDCORE_EXAMPLES_DIR) + "/rt-app/priority-inversion.json --policy cfs --duration 200ms", " 2>&1");
  EXPECT_EQ(ok.code, 0);
  EXPECT_EQ(ok.out.find("did not hold"), std::string::npos) << ok.out;
}

// An output that cannot be written is exit 2 with the reason and no usage text (the command
// line was fine), and plot checks every figure's path before writing the first: a directory in
// the way of one figure leaves the others unwritten.
TEST(SchedsimCli, AnUnwritableOutputNamesTheReasonAndPlotWritesAllOrNothing) {
  const std::string dir = std::string(SCHEDSIM_TMP) + "/plot-blocked";
  std::remove((dir + "/nice-share.svg").c_str());
  ::rmdir((dir + "/nice-share.svg").c_str());
  ::mkdir(dir.c_str(), 0777);
  ASSERT_EQ(::mkdir((dir + "/nice-share.svg").c_str(), 0777), 0);
  const result r = run("plot --scenario desktop-2007 --duration 1s --policies cfs --out " + dir, " 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("nice-share.svg': a directory (nothing was written)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("usage:"), std::string::npos) << r.out;
  // Nothing but the blocking directory is there (figures of an earlier run would be too).
  const result listing = schedsim_cli::run_shell("ls " + dir);
  EXPECT_EQ(listing.out, "nice-share.svg\n") << "written beside the refused figure:\n" << listing.out;
  ::rmdir((dir + "/nice-share.svg").c_str());
  const result t = run("run --scenario kernbench-4cpu --policy ref-rr --duration 100ms --trace " + dir + "/no/such/dir/t.txt", " 2>&1");
  EXPECT_EQ(t.code, 2) << t.out;
  EXPECT_NE(t.out.find("--trace: cannot write"), std::string::npos) << t.out;
  EXPECT_EQ(t.out.find("usage:"), std::string::npos) << t.out;
}

// Lists and specs the user typed: an empty entry, a knob given twice, a machine cost beyond its
// documented bound are usage errors (exit 2) with a message naming them, not silently dropped,
// overridden or simulated.
TEST(SchedsimCli, MalformedListsSpecsAndAbsurdCostsAreUsageErrors) {
  const auto usage = [](const std::string& args, const std::string& message) {
    const result r = run(args, " 2>&1 >/dev/null");
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
  };
  usage("compare --scenario kernbench-4cpu --policies sd,,cfs", "--policies: empty entry in 'sd,,cfs'");
  usage("compare --scenario kernbench-4cpu --policies sd,cfs,", "--policies: empty entry in 'sd,cfs,'");
  usage("sweep --scenario kernbench-4cpu --policy ref-rr --knob timeslice=1ms,,2ms", "--knob: empty entry");
  usage("plot --scenario kernbench-4cpu --policies sd,,cfs --out " + std::string(SCHEDSIM_TMP) + "/no-plots",
        "--policies: empty entry in 'sd,,cfs'");
  usage("run --scenario kernbench-4cpu --policy eevdf:base_slice=1ms,base_slice=2ms",
        "knob 'base_slice' given twice in policy spec 'eevdf:base_slice=1ms,base_slice=2ms'");
  usage("compare --scenario kernbench-4cpu --policies eevdf:base_slice=1ms,base_slice=2ms", "knob 'base_slice' given twice");
  usage("run --scenario kernbench-4cpu --cs-cost 10s", "--cs-cost: bad time '10s' (expected a time from 0 to 1ms");
  // A bare number is ns: "--duration 4" meant as seconds is refused, not run for 4 ns.
  usage("run --scenario kernbench-4cpu --duration 4", "--duration: bad time '4' (expected a time from 100us");
  usage("run --scenario kernbench-4cpu --refill 10s", "--refill: bad time '10s' (expected a time from 0 to 100ms");
  usage("run --scenario kernbench-4cpu --refill-half 11s", "--refill-half: bad time '11s' (expected a time from 1ns to 10s");
  usage("run --scenario kernbench-4cpu --balance 11s", "--balance: bad time '11s' (expected a time from 1ns to 10s");
  usage("run --scenario kernbench-4cpu --tick-phase 2s", "--tick-phase: bad time '2s' (expected a time from 0 to 1s");
  usage("run --scenario kernbench-4cpu --balance-by weight", "--balance-by must be count or load, not 'weight'");
  usage("run --scenario kernbench-4cpu --wake-affine 1", "--wake-affine must be on or off, not '1'");
  usage("run --scenario kernbench-4cpu --sis-util yes", "--sis-util must be on or off, not 'yes'");
  usage("run --scenario kernbench-4cpu --rt-runtime-share 1", "--rt-runtime-share must be on or off, not '1'");
  usage("run --scenario kernbench-4cpu --rt-runtime 2s", "--rt-runtime 2s exceeds the RT period, 1s");
  usage("run --scenario kernbench-4cpu --rt-runtime 30ms --rt-period 20ms", "--rt-runtime 30ms exceeds the RT period, 20ms");
  usage("run --scenario kernbench-4cpu --rt-runtime -2", "--rt-runtime: bad value '-2' (expected -1, no throttling, or a time");
  usage("run --scenario kernbench-4cpu --rt-period 10us", "--rt-period: bad time '10us' (expected a time from 1ms to 100s");
  usage("run --scenario kernbench-4cpu --fair-server 2s", "--fair-server 2s exceeds its period, 1s");
  usage("run --scenario kernbench-4cpu --fair-server 30ms --fair-server-period 20ms", "--fair-server 30ms exceeds its period, 20ms");
  usage("run --scenario kernbench-4cpu --fair-server -1ms", "--fair-server: bad time '-1ms'");
  usage("run --scenario kernbench-4cpu --fair-server-period 99us", "--fair-server-period: bad time '99us' (expected a time from 100us");
  usage("run --scenario kernbench-4cpu --fair-server-period 5s", "--fair-server-period: bad time '5s'");
  usage("run --scenario kernbench-4cpu --fair-server-rules 6.17", "--fair-server-rules: bad value '6.17' (expected 6.12 or 6.19)");
  usage("run --scenario autogroup/on --cpu-max make", "--cpu-max: bad value 'make' (expected GROUP=QUOTA/PERIOD[/BURST]");
  usage("run --scenario autogroup/on --cpu-max make=50ms", "--cpu-max: bad value 'make=50ms'");
  usage("run --scenario autogroup/on --cpu-max =50ms/100ms", "--cpu-max: bad value '=50ms/100ms'");
  usage("run --scenario autogroup/on --cpu-max make=50ms/100ms/1ms/2ms", "--cpu-max: bad value");
  usage("run --scenario autogroup/on --cpu-max make=50ms//1ms", "--cpu-max: empty entry");
  usage("run --scenario autogroup/on --cpu-max make=lots/100ms", "--cpu-max: bad time 'lots'");
  usage("run --scenario autogroup/on --cpu-max make=500us/100ms", "--cpu-max: 'make=500us/100ms' is outside the kernel's limits");
  usage("run --scenario autogroup/on --cpu-max make=50ms/2s", "--cpu-max: bad time '2s'");
  usage("run --scenario autogroup/on --cpu-max make=50ms/100ms/60ms", "is outside the kernel's limits");
  usage("run --scenario autogroup/on --cpu-max make=max/100ms/1ms", "is outside the kernel's limits");
  usage("run --scenario autogroup/on --cpu-max nosuch=50ms/100ms", "--cpu-max: no cgroup 'nosuch' in autogroup/on (cgroups: 'make', 'pert', 'desktop')");
  usage("run --scenario desktop-2007 --cpu-max x=50ms/100ms", "no cgroup 'x' in these workloads (they declare none)");
  usage("compare --scenario autogroup --cpu-max nosuch=50ms/100ms", "--cpu-max: no cgroup 'nosuch' in these workloads (cgroups: 'make', 'pert', 'desktop')");
  usage("run --scenario kernbench-4cpu --capacity 1024,0", "--capacity: bad value '0' (expected an integer in 1..1024)");
  usage("run --scenario kernbench-4cpu --capacity 1024,1025", "--capacity: bad value '1025'");
  usage("run --scenario kernbench-4cpu --capacity 1024,,446", "--capacity: empty entry in '1024,,446'");
  usage("run --scenario kernbench-4cpu --capacity 1024,446 --cpus 4", "--capacity lists 2 CPUs but --cpus is 4");
  usage("run --scenario kernbench-4cpu --capacity big,little", "--capacity: bad value 'big'");
  usage("report --scenario kernbench-4cpu -o " + std::string(SCHEDSIM_TMP) + "/no-report.html --timeline 1ns",
        "--timeline: bad value '1ns' (expected a time from 1ms to 60s");
  // The bounds themselves are accepted.
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy ref-rr --duration 100ms --cs-cost 1ms --refill 100ms "
                "--refill-half 10s --balance 10s --tick-phase 1s").code, 0);
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
  // A name that is a scenario and its family at once traces the scenario itself, and says on
  // stderr which variants it left out (without --trace they run too).
  const result family = run("run --scenario desktop-2007 --policy ref-rr --duration 100ms --trace " + path, " 2>&1");
  EXPECT_EQ(family.code, 0);
  EXPECT_NE(family.out.find("schedsim: note: --trace traces one workload: ran desktop-2007 only, not "
                            "desktop-2007/rotating (run each by its name)"),
            std::string::npos)
      << family.out;
  EXPECT_EQ(family.out.find("scenario desktop-2007/rotating"), std::string::npos);  // its table is not printed
  const result untraced = run("run --scenario desktop-2007 --policy ref-rr --duration 100ms", " 2>&1");
  EXPECT_NE(untraced.out.find("scenario desktop-2007/rotating"), std::string::npos);
  EXPECT_EQ(untraced.out.find("note: --trace"), std::string::npos);
}

// --warmup: statistics from then on, said in the table header; not shorter than the run: usage.
TEST(SchedsimCli, WarmupWindow) {
  const result r = run("compare --scenario kernbench-4cpu --policies ref-rr --duration 3s --warmup 1s --no-host-timing");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("2.0 s measured after a 1.0 s warm-up"), std::string::npos) << r.out;
  // A span that one decimal would round is printed with the digits it needs (it read 0.0 s).
  const result short_run = run("compare --scenario kernbench-4cpu --policies ref-rr --duration 10ms --warmup 2500us --no-host-timing");
  ASSERT_EQ(short_run.code, 0);
  EXPECT_NE(short_run.out.find("(cpus 4, hz 1000, 0.007500 s measured after a 0.002500 s warm-up)"), std::string::npos) << short_run.out;
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy ref-rr --duration 1s --warmup 1s").code, 2);
  EXPECT_EQ(run("run --scenario kernbench-4cpu --policy ref-rr --warmup -5ms").code, 2);
}

TEST(SchedsimCli, CompareSeedTables) {
  const result r = run("compare --scenario xterm-renice --policies ref-rr --duration 2s");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("== xterm-renice/xnice-10"), std::string::npos);
  EXPECT_NE(r.out.find("cs/s"), std::string::npos);
}

// --seeds N: every (workload, policy) runs under seeds --seed .. --seed + N - 1. JSON lists each
// run, and each equals the single run with that --seed; the table's cells are the mean and the
// sample standard deviation of those runs, recomputed here from the JSON.
namespace sj = schedcore::sim::json;
const char* const kSeedsArgs =
    "compare --scenario desktop-2007/rotating --policies sd:rr_interval=2ms,cfs2007:granularity=2ms --duration 2s "
    "--seed 5 --seeds 3 --no-host-timing";

double num(const sj::value& v, const char* a, const char* b = nullptr) {
  const sj::value* x = v.find(a);
  if (x != nullptr && b != nullptr) x = x->find(b);
  return x != nullptr ? x->d : -1;
}

TEST(SchedsimCli, SeedsRunEverySeedAndJsonMatchesSingleRuns) {
  const result r = run(std::string(kSeedsArgs) + " --format json");
  ASSERT_EQ(r.code, 0);
  const sj::value all = sj::parse(r.out);
  ASSERT_TRUE(all.is_array());
  ASSERT_EQ(all.items.size(), 6u);
  const char* const policies[] = {"sd:rr_interval=2ms", "cfs2007:granularity=2ms"};
  bool seeds_differ = false;
  for (std::size_t i = 0; i < 6; ++i) {
    const sj::value& o = all.items[i];
    const std::string policy = policies[i / 3];
    const int seed = 5 + static_cast<int>(i % 3);
    EXPECT_EQ(o.find("policy")->s, policy);
    EXPECT_EQ(num(o, "seed"), seed);
    const result one = run("run --scenario desktop-2007/rotating --policy " + policy + " --duration 2s --seed " +
                           std::to_string(seed) + " --no-host-timing --format json");
    ASSERT_EQ(one.code, 0);
    const sj::value s = sj::parse(one.out);
    EXPECT_EQ(num(o, "totals", "context_switches"), num(s, "totals", "context_switches")) << policy << " seed " << seed;
    EXPECT_EQ(num(o, "totals", "idle_ns"), num(s, "totals", "idle_ns")) << policy << " seed " << seed;
    if (i % 3 != 0 && num(o, "totals", "context_switches") != num(all.items[i - 1], "totals", "context_switches"))
      seeds_differ = true;
  }
  EXPECT_TRUE(seeds_differ) << "the seeds gave identical runs: this test would not see a seed mix-up";
}

TEST(SchedsimCli, SeedsTableCellsAreMeanAndSampleSd) {
  const result j = run(std::string(kSeedsArgs) + " --format json");
  const result t = run(kSeedsArgs);
  ASSERT_EQ(j.code, 0);
  ASSERT_EQ(t.code, 0);
  EXPECT_NE(t.out.find("mean ±sd over 3 seeds 5..7"), std::string::npos);
  const sj::value all = sj::parse(j.out);
  ASSERT_EQ(all.items.size(), 6u);
  for (std::size_t row = 0; row < 2; ++row) {
    double v[3], m = 0, q = 0;
    for (std::size_t k = 0; k < 3; ++k) m += v[k] = num(all.items[row * 3 + k], "totals", "cs_per_sec") / 3;
    for (std::size_t k = 0; k < 3; ++k) v[k] *= 3;
    for (double x : v) q += (x - m) * (x - m);
    char cell[64];
    std::snprintf(cell, sizeof cell, "%.0f ±%.0f", m, std::sqrt(q / 2));
    const std::string policy = all.items[row * 3].find("policy")->s;
    const std::size_t line = t.out.find("\n" + policy + " ");
    ASSERT_NE(line, std::string::npos) << policy;
    const std::string text = t.out.substr(line + 1, t.out.find('\n', line + 1) - line - 1);
    EXPECT_NE(text.find(std::string("  ") + cell + "  "), std::string::npos) << text << " (expected cs/s " << cell << ")";
  }
  // Parallel and serial replications print the same bytes (--jobs 3: parallel on any host).
  EXPECT_EQ(run(std::string(kSeedsArgs) + " --jobs 1").out, run(std::string(kSeedsArgs) + " --jobs 3").out);
}

TEST(SchedsimCli, SeedsBadUsage) {
  EXPECT_EQ(run("run --scenario desktop-2007 --seeds 2").code, 2);  // run: one seed, --seed N
  EXPECT_EQ(run("compare --scenario desktop-2007 --seeds 0").code, 2);
  EXPECT_EQ(run("compare --scenario desktop-2007 --seeds 10001").code, 2);
  EXPECT_EQ(run("compare --scenario desktop-2007 --seeds many").code, 2);
  EXPECT_EQ(run("compare --scenario desktop-2007 --seeds").code, 2);
}

// interbench's -B/-N/-L/-r after the scenario name (interbench.md §5): the canonical name in the
// output, the options applied to the tasks, -r's matrix of Audio and Video only, and exit 2 with
// a message naming the option for every malformed or misplaced one.
result run_with_stderr(const std::string& args) { return run(args, " 2>&1"); }
TEST(SchedsimCli, InterbenchOptions) {
  const result r = run("run --scenario interbench/audio/burn:L=2,B=19,N=-5 --policy o1 --format json --duration 2s");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("\"scenario\": \"interbench/audio/burn:B=19,N=-5,L=2\""), std::string::npos);  // canonical order
  EXPECT_NE(r.out.find("{ \"name\": \"audio\", \"group\": \"bench\", \"policy\": \"normal\", \"nice\": 19,"),
            std::string::npos);
  EXPECT_NE(r.out.find("{ \"name\": \"burn-1\", \"group\": \"load\", \"policy\": \"normal\", \"nice\": -5,"),
            std::string::npos);
  EXPECT_EQ(r.out.find("\"burn-2\""), std::string::npos);  // L=2: two burners
  // D (the model's start delay) comes last in the canonical name; D=0 is the default and drops out.
  const result d = run("run --scenario interbench/audio/none:D=2500,B=1 --policy eevdf --format json --duration 2s");
  ASSERT_EQ(d.code, 0);
  EXPECT_NE(d.out.find("\"scenario\": \"interbench/audio/none:B=1,D=2500\""), std::string::npos);
  const result d0 = run("run --scenario interbench/audio/none:D=0 --policy eevdf --format json --duration 2s");
  ASSERT_EQ(d0.code, 0);
  EXPECT_NE(d0.out.find("\"scenario\": \"interbench/audio/none\""), std::string::npos);
  const result rt = run("run --scenario interbench/video/none:r --policy cfs --format json --duration 2s");
  ASSERT_EQ(rt.code, 0);
  EXPECT_NE(rt.out.find("{ \"name\": \"video\", \"group\": \"bench\", \"policy\": \"fifo\", \"nice\": 0, \"rt_priority\": 95,"),
            std::string::npos);
  // -r benchmarks Audio and Video only: 8 + 7 pairs.
  const result m = run("compare --scenario interbench/all:r --policies o1 --format csv --duration 1500ms");
  ASSERT_EQ(m.code, 0);
  std::set<std::string> pairs;  // the csv's scenario column (one row per task)
  std::istringstream lines(m.out);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t a = line.find(','), b = line.find(',', a + 1);
    if (a != std::string::npos && b != std::string::npos && line.compare(a + 1, 11, "interbench/") == 0)
      pairs.insert(line.substr(a + 1, b - a - 1));
  }
  EXPECT_EQ(pairs.size(), 15u) << m.out;
  EXPECT_EQ(pairs.count("interbench/audio/burn:r"), 1u);
  // The table, like interbench -r, gives latencies in us; without r in ms (2 us switch cost).
  const result us = run("compare --scenario interbench/audio/none:B=19,r --policies o1 --duration 2s --no-host-timing");
  ASSERT_EQ(us.code, 0);
  EXPECT_NE(us.out.find("== interbench, policy o1 (cpus 1, options B=19,r) =="), std::string::npos) << us.out;
  EXPECT_NE(us.out.find("latency avg (us)"), std::string::npos) << us.out;
  EXPECT_NE(us.out.find("  2.0  "), std::string::npos) << us.out;  // max 2.0 us
  const result ms = run("compare --scenario interbench/audio/none:B=19 --policies o1 --duration 2s --no-host-timing");
  EXPECT_NE(ms.out.find("latency avg (ms)"), std::string::npos) << ms.out;
  EXPECT_EQ(m.out.find("interbench/x/"), std::string::npos);
  EXPECT_EQ(m.out.find("interbench/gaming/"), std::string::npos);
  // The HTML report shows the benchmarked task in interbench's columns, the same numbers as the JSON.
  const std::string html = ::testing::TempDir() + "schedsim_interbench.html";
  ASSERT_EQ(run("report --scenario interbench/audio/burn:B=19 --policies o1 --duration 4s -o " + html).code, 0);
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("<th>% desired CPU</th><th>% deadlines met</th>"), std::string::npos);
  const result js = run("run --scenario interbench/audio/burn:B=19 --policy o1 --duration 4s --format json");
  const std::size_t at = js.out.find("\"avg_ms\": ");
  ASSERT_NE(at, std::string::npos) << js.out;
  const std::string avg = js.out.substr(at + 10, js.out.find(',', at) - at - 10);
  EXPECT_NE(page.find("<td>" + avg + "</td>"), std::string::npos) << avg;
  const char* bad[][2] = {
      {"interbench/audio/burn:B=20", "B='20': expected an integer in [-20, 19]"},
      {"interbench/audio/burn:N=-21", "N='-21': expected an integer in [-20, 19]"},
      {"interbench/audio/burn:L=0", "L='0': expected an integer in [1, 64]"},
      {"interbench/audio/burn:D=-1", "D='-1': expected an integer in [0, 999999]"},
      {"interbench/audio/burn:D=1000000", "D='1000000'"},
      {"interbench/audio/burn:B=1x", "B='1x'"},
      {"interbench/audio/burn:B=", "B=''"},
      {"interbench/audio/burn:B= 5", "B=' 5'"},
      {"interbench/audio/burn:B=+5", "B='+5'"},
      {"interbench/audio/burn:L=99999999999999999999", "L='99999999999999999999'"},
      {"interbench/audio/burn:N=--1", "N='--1'"},
      {"interbench/audio/burn:Q=1", "interbench option 'Q=1': expected B=NICE, N=NICE, L=THREADS, r or D=MICROSECONDS"},
      {"interbench/audio/burn:", "interbench option '': expected"},
      {"interbench/audio/burn:B=1,B=2", "option 'B' given twice"},
      {"interbench/audio/burn:r=1", "option 'r' takes no value"},
      {"interbench/x/burn:r", "only audio and video are benchmarked"},
      {"interbench/audio/audio:B=1", "apply only to interbench and eevdf-slices scenarios"},
      {"interbench/audio/burn/x:B=1", "apply only to interbench and eevdf-slices scenarios"},
      {"desktop-2007:B=19", "apply only to interbench and eevdf-slices scenarios"},
      {"eevdf-slices/none:J=0", "eevdf-slices option J='0': expected an integer in [1, 1000]"},
      {"eevdf-slices:J=1001", "J='1001'"},
      {"eevdf-slices/custom:B=1", "eevdf-slices option 'B=1': expected J=MICROSECONDS, S=MICROSECONDS, K=MICROSECONDS or P=MILLISECONDS"},
      {"eevdf-slices:P=100", "eevdf-slices option P (the kernel thread's sleep) needs K (its run) above 0"},
      {"eevdf-slices/none:K=0,P=100", "needs K (its run) above 0"},
      {"eevdf-slices:K=100001", "K='100001': expected an integer in [0, 100000]"},
      {"eevdf-slices:K=500,P=0", "P='0': expected an integer in [1, 10000]"},
      {"eevdf-slices:S=-1", "S='-1': expected an integer in [0, 10000]"},
      {"eevdf-slices:J=5,J=6", "option 'J' given twice"},
      {"massive-intr:J=5", "apply only to interbench and eevdf-slices scenarios"},
  };
  for (const auto& b : bad) {
    const result e = run_with_stderr(std::string("run --scenario '") + b[0] + "' --policy o1 --duration 1s");
    EXPECT_EQ(e.code, 2) << b[0];
    EXPECT_NE(e.out.find(b[1]), std::string::npos) << b[0] << ": " << e.out;
  }
}

// Output files (sim/output_file.hpp): a trace or report is swapped in through a unique temporary
// file, so a file of the user's named like the old fixed PATH.tmp survives; a symbolic link
// stays a link and its target gets the text; a device is written through, never replaced by a
// regular file (as root, `--trace /dev/null` used to turn /dev/null into a file).
TEST(SchedsimCli, OutputFilesNeverReplaceWhatIsNotTheirs) {
  const std::string dir = std::string(SCHEDSIM_TMP) + "/output-files";
  (void)std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  const std::string trace = dir + "/out.trace";
  { std::ofstream(trace + ".tmp") << "precious\n"; }
  const std::string args = "run --scenario desktop-2007 --policy cfs --duration 100ms --trace ";
  ASSERT_EQ(run(args + trace).code, 0);
  std::ifstream kept(trace + ".tmp");
  std::string line;
  ASSERT_TRUE(std::getline(kept, line)) << "the user's out.trace.tmp was removed";
  EXPECT_EQ(line, "precious");
  std::ifstream written(trace);
  ASSERT_TRUE(std::getline(written, line));
  EXPECT_EQ(line, "# tracer: nop");
  // A symbolic link: the link stays, its target is replaced.
  const std::string target = dir + "/real.txt", link = dir + "/link.txt";
  { std::ofstream(target) << "old\n"; }
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  ASSERT_EQ(run(args + link).code, 0);
  struct stat st {};
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link was replaced by a file";
  std::ifstream through(target);
  ASSERT_TRUE(std::getline(through, line));
  EXPECT_EQ(line, "# tracer: nop") << "the link's target holds the trace";
  // A dangling link (relative): its target is created beside it, the link stays.
  const std::string dangling = dir + "/dangling.txt";
  ASSERT_EQ(::symlink("made-by-trace.txt", dangling.c_str()), 0);
  ASSERT_EQ(run(args + dangling).code, 0);
  ASSERT_EQ(::lstat(dangling.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the dangling link was replaced by a file";
  std::ifstream made(dir + "/made-by-trace.txt");
  ASSERT_TRUE(std::getline(made, line)) << "the dangling link's target was not created";
  EXPECT_EQ(line, "# tracer: nop");
  // A loop of links, and a file in a directory where no file can be created, say what they are.
  ASSERT_EQ(::symlink((dir + "/loop-b").c_str(), (dir + "/loop-a").c_str()), 0);
  ASSERT_EQ(::symlink((dir + "/loop-a").c_str(), (dir + "/loop-b").c_str()), 0);
  const result loop = run(args + dir + "/loop-a", " 2>&1 >/dev/null");
  EXPECT_EQ(loop.code, 2);
  EXPECT_NE(loop.out.find("a loop of symbolic links"), std::string::npos) << loop.out;
  const result proc = run(args + "/proc/self/status", " 2>&1 >/dev/null");
  EXPECT_EQ(proc.code, 2);
  EXPECT_NE(proc.out.find("cannot create a file in '/proc/self/'"), std::string::npos) << proc.out;
  // A character device (a private null device when allowed: never the machine's /dev/null).
  const std::string dev = dir + "/null";
  if (::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    ASSERT_EQ(run(args + dev).code, 0);
    ASSERT_EQ(::lstat(dev.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device node became a regular file";
    ASSERT_EQ(run("report --scenario kernbench-4cpu --duration 100ms -o " + dev).code, 0);
    ASSERT_EQ(::lstat(dev.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "report -o replaced the device node";
  }
  // No temporary file is left in the directory.
  std::string listing;
  if (FILE* p = popen(("ls -A '" + dir + "'").c_str(), "r")) {
    char buf[512];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) listing.append(buf, n);
    pclose(p);
  }
  EXPECT_NE(listing.find("out.trace"), std::string::npos) << listing;
  // Temporaries are hidden (".NAME.XXXXXX", output_file.hpp), whichever name was written.
  EXPECT_EQ(listing.find("\n."), std::string::npos) << "a temporary file was left: " << listing;
  EXPECT_FALSE(!listing.empty() && listing.front() == '.') << "a temporary file was left: " << listing;
}

// An output that names an input (through any path or link) would be overwritten by the run:
// refused with exit 2 before anything runs, and the input is left as it was.
TEST(SchedsimCli, AnOutputThatIsAnInputIsRefused) {
  const std::string dir = std::string(SCHEDSIM_TMP) + "/output-is-input";
  (void)std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  const std::string w = dir + "/w.json";
  const std::string text = R"({"global": {"duration": 1}, "tasks": {"t": {"run": 1000, "sleep": 1000}}})";
  { std::ofstream(w) << text; }
  const result r = run("run --rt-app " + w + " --duration 100ms --trace " + dir + "/../output-is-input/w.json", " 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("is the input file"), std::string::npos) << r.out;
  std::ifstream in(w);
  std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(now, text) << "the input was changed";
  const std::string em = std::string(SCHEDCORE_EXAMPLES_DIR) + "/energy-models/big-little.json";
  const std::string em_copy = dir + "/em.json";
  (void)std::system(("cp '" + em + "' '" + em_copy + "'").c_str());
  EXPECT_EQ(run("run --scenario desktop-2007 --cpus 6 --energy-model " + em_copy + " --trace " + em_copy).code, 2);
}

// Empty values (an unset shell variable) and empty knob entries are usage errors, not "not
// given"; a number past the int64 range with a fraction is refused (it was signed overflow);
// the top of --seed's stated range is accepted.
TEST(SchedsimCli, EmptyValuesAndEdgeNumbers) {
  const std::string base = "run --scenario desktop-2007 --duration 100ms ";
  for (const std::string bad : {"--trace ''", "--policy ''", "--energy-model ''", "--scenario ''", "--policy cfs:",
                                "--policy cfs:,", "--policy cfs:latency=6ms,"}) {
    const result r = run(base + bad, " 2>&1");
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
  }
  EXPECT_EQ(run("compare --scenario desktop-2007 --duration 100ms --policies ''").code, 2);
  for (const std::string big : {"--duration 9223372036.999999999s", "--duration 9223372036854775.999us",
                                "--policy cfs:latency=9223372036.999999999s", "--warmup 9223372036.999999999s"}) {
    const result r = run(base + big, " 2>&1");
    EXPECT_EQ(r.code, 2) << big << ": " << r.out;
  }
  EXPECT_EQ(run(base + "--policy cfs --seed 9223372036854775807").code, 0);
  EXPECT_EQ(run(base + "--policy cfs --seed 9223372036854775808").code, 2);
  EXPECT_EQ(run("report --scenario kernbench-4cpu --duration 1 -o " + std::string(SCHEDSIM_TMP) + "/r.html").code, 2)
      << "report's --duration has run's 100 us minimum";
}

// Energy models: a domain name that would break the outputs (a control character, invalid
// UTF-8) is refused with file:line:column, like a task name; power figures whose energy over
// the run could pass the u64 nJ totals are refused instead of wrapping.
TEST(SchedsimCli, EnergyModelNamesAndTotalsAreChecked) {
  const std::string dir = std::string(SCHEDSIM_TMP) + "/energy-checks";
  (void)std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  const std::string bad_name = dir + "/bad-name.json";
  { std::ofstream(bad_name) << "{\"domains\": [{\"name\": \"a\\u001bb\", \"cpus\": 1, \"capacity\": 1024,\n"
                               "  \"states\": [{\"khz\": 1000000, \"uw\": 100000}]}]}"; }
  result r = run("run --scenario desktop-2007 --duration 100ms --energy-model " + bad_name, " 2>&1");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find(bad_name + ":1:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("control character"), std::string::npos) << r.out;
  const std::string raw = dir + "/raw-byte.json";
  { std::ofstream(raw) << "{\"domains\": [{\"name\": \"a\xff" "b\", \"cpus\": 1, \"capacity\": 1024, "
                          "\"states\": [{\"khz\": 1000000, \"uw\": 100000}]}]}"; }
  r = run("run --scenario desktop-2007 --duration 100ms --energy-model " + raw, " 2>&1");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("UTF-8"), std::string::npos) << r.out;
  const std::string hot = dir + "/hot.json";
  { std::ofstream(hot) << "{\"domains\": [{\"cpus\": 64, \"capacity\": 1024, \"idle_uw\": 4294967295,"
                          " \"states\": [{\"khz\": 1000000, \"uw\": 4294967295}]}]}"; }
  r = run("run --scenario kernbench-4cpu --cpus 64 --duration 100000s --energy-model " + hot, " 2>&1");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("2^64 nJ"), std::string::npos) << r.out;
}

}  // namespace
