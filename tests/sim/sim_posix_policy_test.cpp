// schedsim --policy fifo / rr (include/schedcore/sim/posix_fair.hpp): every normal/batch/idle
// task of the workload as SCHED_FIFO / SCHED_RR priority 1 under the library's rt_policy. The
// expectations come from the POSIX rules, not from recorded outputs:
// - RR: equal-priority CPU hogs share the CPU equally and rotate once per time slice, so over
//   10 s a 100 ms slice gives ~100 switches and a 10 ms slice ~1000;
// - FIFO: the first hog runs until the end (an equal-priority task never preempts it);
// - nice is ignored; knobs are checked like other policies' (exit 2);
// - the workload's own SCHED_FIFO tasks stay in the rt class above and still preempt.
// Default throttling (runtime 950 ms per 1 s period, the kernel's sched_rt_runtime_us) leaves
// the CPU idle 5% of each period when only these tasks run; `runtime=-1` turns it off.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "schedcore/policy/rt.hpp"
#include "schedcore/sim/json.hpp"
#include "schedcore/sim/posix_fair.hpp"

#include "schedsim_cli.hpp"

namespace {

namespace json = schedcore::sim::json;

using schedsim_cli::result;

result run(const std::string& args, const char* stderr_to = " 2>/dev/null") { return schedsim_cli::run(args, stderr_to); }

// A workload file in the temp dir, named after the test (ctest runs tests in parallel),
// removed when the test ends.
struct temp_file {
  std::string path;
  temp_file(const std::string& name, const std::string& text)
      : path(::testing::TempDir() + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name) {
    std::ofstream(path) << text;
  }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
  ~temp_file() { std::remove(path.c_str()); }
};

// Three pure CPU hogs (nice 0, SCHED_OTHER) on one CPU for 10 s.
struct hogs3 : temp_file {
  hogs3()
      : temp_file("schedsim_posix_hogs3.json",
                  "{ \"tasks\": { \"hog\": { \"instance\": 3, \"loop\": -1, \"run\": 100000 } },"
                  " \"global\": { \"duration\": 10 } }\n") {}
};

constexpr std::int64_t ms = 1000000;
constexpr std::int64_t ten_s = 10000 * ms;

// One run as parsed JSON (no context-switch cost, no cache refill: exact shares).
struct run_json {
  json::value doc;
  std::int64_t num(const json::value& o, const char* key) const {
    const json::value* v = o.find(key);
    std::int64_t x = -1;
    if (v == nullptr || !v->as_int(x)) ADD_FAILURE() << "no integer '" << key << "'";
    return x;
  }
  std::int64_t total(const char* key) const { return num(*doc.find("totals"), key); }
  const json::value& task(const std::string& name) const {
    for (const json::value& t : doc.find("tasks")->items)
      if (t.find("name")->s == name) return t;
    ADD_FAILURE() << "no task " << name;
    return doc;
  }
  std::int64_t task_num(const std::string& name, const char* key) const { return num(task(name), key); }
};

run_json run_policy(const std::string& file, const std::string& policy) {
  const result r = run("run --rt-app " + file + " --policy " + policy +
                       " --cs-cost 0 --refill 0 --no-host-timing --format json");
  run_json j;
  EXPECT_EQ(r.code, 0) << policy;
  if (r.code == 0) j.doc = json::parse(r.out);
  return j;
}

// RR, no throttling: each hog gets a third of the CPU; one switch per 100 ms slice.
TEST(PosixPolicy, RrSharesTheCpuAndRotatesEveryTimeslice) {
  const hogs3 hogs;
  const std::string& f = hogs.path;
  const run_json j = run_policy(f, "rr:runtime=-1");
  std::int64_t sum = 0, least = ten_s, most = 0;
  for (const char* h : {"hog-0", "hog-1", "hog-2"}) {
    const std::int64_t cpu = j.task_num(h, "cpu_ns");
    EXPECT_NEAR(static_cast<double>(cpu), ten_s / 3.0, 0.05 * ten_s / 3.0) << h;  // a third, +-5%
    // 100 slices over 3 tasks: 33 or 34 each
    EXPECT_GE(j.task_num(h, "switches"), 33) << h;
    EXPECT_LE(j.task_num(h, "switches"), 34) << h;
    least = cpu < least ? cpu : least;
    most = cpu > most ? cpu : most;
    sum += cpu;
  }
  EXPECT_LE(most - least, 100 * ms) << "within one slice of each other";
  EXPECT_GE(sum, ten_s - ms);                               // the CPU never idles
  const std::int64_t cs = j.total("context_switches");
  EXPECT_GE(cs, 99);                                        // 10 s / 100 ms
  EXPECT_LE(cs, 103);                                       // + a few at start-up
  // The longest wait is the two other hogs' slices.
  EXPECT_NEAR(static_cast<double>(j.task_num("hog-0", "max_wait_ns")), 200.0 * ms, 2.0 * ms);
}

// The timeslice knob: 10 ms gives ten times the switches of 100 ms, the same shares.
TEST(PosixPolicy, RrTimesliceKnobScalesTheSwitchCount) {
  const hogs3 hogs;
  const std::string& f = hogs.path;
  const run_json a = run_policy(f, "rr:timeslice=100ms,runtime=-1");
  const run_json b = run_policy(f, "rr:timeslice=10ms,runtime=-1");
  const double ca = static_cast<double>(a.total("context_switches"));
  const double cb = static_cast<double>(b.total("context_switches"));
  EXPECT_GE(cb, 990.0);   // 10 s / 10 ms
  EXPECT_LE(cb, 1010.0);
  EXPECT_NEAR(cb / ca, 10.0, 0.5);
  for (const char* h : {"hog-0", "hog-1", "hog-2"}) {
    EXPECT_NEAR(static_cast<double>(b.task_num(h, "cpu_ns")), ten_s / 3.0, 0.01 * ten_s / 3.0) << h;
    // the same shares at both slices: within one 100 ms slice of each other
    EXPECT_NEAR(static_cast<double>(a.task_num(h, "cpu_ns")), static_cast<double>(b.task_num(h, "cpu_ns")), 100.0 * ms) << h;
  }
  EXPECT_NEAR(static_cast<double>(b.task_num("hog-0", "max_wait_ns")), 20.0 * ms, 1.0 * ms);
}

// RR with the default knobs (100 ms slice; 950 ms per 1 s throttling): still a third each of
// the 95% the class may use, and about 100 switches plus the ten throttled periods' returns.
TEST(PosixPolicy, RrDefaultsAreTheKernelsRrTimesliceAndThrottling) {
  const hogs3 hogs;
  const std::string& f = hogs.path;
  const run_json j = run_policy(f, "rr");
  const double busy = 0.95 * ten_s;
  for (const char* h : {"hog-0", "hog-1", "hog-2"})
    EXPECT_NEAR(static_cast<double>(j.task_num(h, "cpu_ns")), busy / 3.0, 0.05 * busy / 3.0) << h;
  EXPECT_NEAR(static_cast<double>(j.total("idle_ns")), 0.05 * ten_s, 2.0 * ms);
  const std::int64_t cs = j.total("context_switches");
  EXPECT_GE(cs, 95);
  EXPECT_LE(cs, 125);
  const run_json k = run_policy(f, "rr:timeslice=10ms");
  EXPECT_GE(k.total("context_switches"), 900);  // ~1000 minus the slices lost to throttling
  EXPECT_LE(k.total("context_switches"), 1050);
}

// FIFO: the first hog runs to the end; an equal-priority peer never preempts it.
TEST(PosixPolicy, FifoRunsTheFirstHogToTheEnd) {
  const hogs3 hogs;
  const std::string& f = hogs.path;
  const run_json j = run_policy(f, "fifo:runtime=-1");
  EXPECT_GE(j.task_num("hog-0", "cpu_ns"), ten_s - ms);
  EXPECT_EQ(j.task_num("hog-1", "cpu_ns"), 0);
  EXPECT_EQ(j.task_num("hog-2", "cpu_ns"), 0);
  EXPECT_EQ(j.task_num("hog-1", "switches"), 0);
  EXPECT_EQ(j.task_num("hog-2", "switches"), 0);
  EXPECT_LE(j.total("context_switches"), 2);  // the first dispatch only
  // Default throttling: the first hog still gets all the class may use (950 of every 1000 ms),
  // the others nothing; the CPU idles in the throttled 50 ms.
  const run_json d = run_policy(f, "fifo");
  EXPECT_NEAR(static_cast<double>(d.task_num("hog-0", "cpu_ns")), 0.95 * ten_s, 2.0 * ms);
  EXPECT_EQ(d.task_num("hog-1", "cpu_ns"), 0);
  EXPECT_EQ(d.task_num("hog-2", "cpu_ns"), 0);
  EXPECT_LE(d.total("context_switches"), 25);  // to idle and back once per period
}

// A trace prints each task's priority as the kernel's p->prio: these tasks run at real-time
// priority 1, so 99 - 1 = 98 on every sched_switch and wakeup line, not a fair task's 120 + nice
// (two CPUs, so that the blinking task runs beside the FIFO hog).
TEST(PosixPolicy, TracesPrintTheRealTimePriority) {
  const temp_file file("schedsim_posix_trace.json",
                        "{ \"tasks\": {"
                        " \"hog\": { \"loop\": -1, \"priority\": 10, \"run\": 100000 },"
                        " \"blink\": { \"loop\": -1, \"run\": 1000, \"sleep\": 5000 } },"
                        " \"global\": { \"duration\": 1 } }\n");
  for (const char* policy : {"fifo", "rr"}) {
    const std::string trace = file.path + "." + policy + ".trace";
    const result r =
        run("run --rt-app " + file.path + " --policy " + policy + " --cpus 2 --no-host-timing --trace " + trace);
    ASSERT_EQ(r.code, 0) << policy;
    std::ifstream in(trace);
    std::size_t tasks = 0;
    for (std::string l; std::getline(in, l);) {
      for (const char* key : {"next_prio=", "prev_prio=", " prio="}) {
        const std::size_t at = l.find(key);
        if (at == std::string::npos) continue;
        const std::size_t v = at + std::string(key).size();
        const std::string prio = l.substr(v, l.find_first_of(" \n", v) - v);
        const std::size_t pid_at = l.rfind("pid=", at);
        if (pid_at != std::string::npos && l.compare(pid_at, 6, "pid=0 ") == 0) continue;  // swapper
        EXPECT_EQ(prio, "98") << policy << ": " << l;
        ++tasks;
      }
    }
    EXPECT_GT(tasks, 100u) << policy;
    std::remove(trace.c_str());
  }
}

// nice is ignored, as POSIX real-time scheduling ignores it: nice -10 and nice 10 hogs split
// the CPU equally (every fair policy would favour the nice -10 one).
TEST(PosixPolicy, NiceIsIgnored) {
  const temp_file file("schedsim_posix_nice.json",
                        "{ \"tasks\": {"
                        " \"high\": { \"loop\": -1, \"priority\": -10, \"run\": 100000 },"
                        " \"low\": { \"loop\": -1, \"priority\": 10, \"policy\": \"SCHED_BATCH\", \"run\": 100000 } },"
                        " \"global\": { \"duration\": 10 } }\n");
  const run_json j = run_policy(file.path, "rr:runtime=-1");
  EXPECT_NEAR(static_cast<double>(j.task_num("high-0", "cpu_ns")), ten_s / 2.0, 101.0 * ms);  // one slice
  EXPECT_NEAR(static_cast<double>(j.task_num("low-0", "cpu_ns")), ten_s / 2.0, 101.0 * ms);
}

// A workload task that is itself SCHED_FIFO (priority 50) runs in the real rt class above and
// preempts the `--policy rr` hogs at once; the same task as SCHED_OTHER is just another RR peer
// and waits behind their 100 ms slices.
TEST(PosixPolicy, WorkloadFifoTaskStillPreempts) {
  const char* fmt =
      "{ \"tasks\": {"
      " \"hog\": { \"instance\": 2, \"loop\": -1, \"run\": 100000 },"
      " \"rt\": { \"loop\": -1, \"policy\": \"%s\", \"priority\": %d, \"run\": 1000,"
      " \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } },"
      " \"global\": { \"duration\": 10 } }\n";
  char text[512];
  std::snprintf(text, sizeof text, fmt, "SCHED_FIFO", 50);
  const temp_file fifo_file("schedsim_posix_rtmix.json", text);
  const run_json j = run_policy(fifo_file.path, "rr");
  EXPECT_EQ(j.task("rt-0").find("policy")->s, "fifo");
  EXPECT_LE(j.task_num("rt-0", "max_wait_ns"), ms / 10);  // preempts on wakeup
  EXPECT_NEAR(static_cast<double>(j.task_num("rt-0", "cpu_ns")), 0.1 * ten_s, 10.0 * ms);  // 1 ms per 10 ms
  // The hogs share the rest (RR: a preempted task keeps the rest of its slice).
  const double rest = 0.9 * ten_s;
  for (const char* h : {"hog-0", "hog-1"})
    EXPECT_NEAR(static_cast<double>(j.task_num(h, "cpu_ns")), rest / 2.0, 0.05 * rest / 2.0) << h;

  std::snprintf(text, sizeof text, fmt, "SCHED_OTHER", 0);
  const temp_file other_file("schedsim_posix_rtmix_other.json", text);
  const run_json o = run_policy(other_file.path, "rr");
  EXPECT_EQ(o.task("rt-0").find("policy")->s, "normal");
  EXPECT_GE(o.task_num("rt-0", "max_wait_ns"), 100 * ms);  // behind a hog's whole slice
}

// Knob checking (exit 2, a message on stderr) and `schedsim list`.
TEST(PosixPolicy, KnobsAreCheckedAndListed) {
  const hogs3 hogs;
  const std::string& f = hogs.path;
  auto refused = [&](const std::string& spec) {
    const result r = run("run --rt-app " + f + " --policy " + spec + " --duration 100ms", " 2>&1 >/dev/null");
    EXPECT_EQ(r.code, 2) << spec;
    EXPECT_FALSE(r.out.empty()) << spec;  // the message
    return r.out;
  };
  EXPECT_NE(refused("rr:timeslice=50us").find("out of bounds"), std::string::npos);  // below 100 us
  EXPECT_NE(refused("rr:timeslice=11s").find("out of bounds"), std::string::npos);   // above 10 s
  EXPECT_NE(refused("rr:bogus=1ms").find("unknown knob"), std::string::npos);
  EXPECT_NE(refused("fifo:timeslice=10ms").find("unknown knob"), std::string::npos);  // FIFO has no slice
  refused("rr:timeslice=fast");
  refused("rr:runtime=2s");  // runtime above period: rt_policy refuses the combination
  EXPECT_EQ(run("run --rt-app " + f + " --policy rr:timeslice=50ms --duration 100ms").code, 0);
  EXPECT_EQ(run("run --rt-app " + f + " --policy fifo:runtime=500ms,period=1s --duration 100ms").code, 0);

  const result l = run("list");
  ASSERT_EQ(l.code, 0);
  const std::size_t fifo = l.out.find("\n  fifo "), rr = l.out.find("\n  rr ");
  ASSERT_NE(fifo, std::string::npos) << l.out;
  ASSERT_NE(rr, std::string::npos) << l.out;
  const std::size_t rr_end = l.out.find("\n\n", rr);  // rr is the last policy: its block ends the list
  const std::string rr_block = l.out.substr(rr, rr_end == std::string::npos ? std::string::npos : rr_end - rr);
  const std::string fifo_block = l.out.substr(fifo, rr - fifo);
  EXPECT_NE(rr_block.find("timeslice            default 100000000ns"), std::string::npos) << rr_block;
  EXPECT_NE(rr_block.find("runtime"), std::string::npos) << rr_block;
  EXPECT_NE(fifo_block.find("runtime"), std::string::npos) << fifo_block;
  EXPECT_NE(fifo_block.find("period"), std::string::npos) << fifo_block;
  EXPECT_EQ(fifo_block.find("timeslice"), std::string::npos) << fifo_block;
}

// The adapter's knob tables are rt_policy's own (names, fields, bounds), FIFO without timeslice.
TEST(PosixPolicy, KnobTablesAreRtPolicys) {
  struct task : schedcore::sim::posix_fair_entity {};
  using rt = schedcore::rt_policy<task, schedcore::sim::posix_fair_access>;
  using rr = schedcore::sim::posix_rr_policy<task>;
  using fifo = schedcore::sim::posix_fifo_policy<task>;
  auto same = [](const auto& a, const auto& b) {
    EXPECT_STREQ(a.name, b.name);
    EXPECT_EQ(a.field, b.field) << a.name;
    EXPECT_EQ(a.unit, b.unit) << a.name;
    EXPECT_EQ(a.min, b.min) << a.name;
    EXPECT_EQ(a.max, b.max) << a.name;
  };
  ASSERT_EQ(std::size(rr::knob_table), std::size(rt::knob_table));
  for (std::size_t i = 0; i < std::size(rt::knob_table); ++i) same(rr::knob_table[i], rt::knob_table[i]);
  ASSERT_EQ(std::size(fifo::knob_table) + 1, std::size(rt::knob_table));
  for (std::size_t i = 0; i < std::size(fifo::knob_table); ++i) same(fifo::knob_table[i], rt::knob_table[i + 1]);
  EXPECT_STREQ(rt::knob_table[0].name, "timeslice");
  EXPECT_EQ(rr::knobs{}.timeslice, schedcore::msec(100));  // RR_TIMESLICE
}

// fifo and rr run only when named: compare's default list leaves them out.
TEST(PosixPolicy, NotInCompareDefaultList) {
  const hogs3 hogs;
  const std::string& f = hogs.path;
  const result d = run("compare --rt-app " + f + " --duration 200ms --no-host-timing --format json");
  ASSERT_EQ(d.code, 0);
  EXPECT_NE(d.out.find("\"policy\": \"ref-rr\""), std::string::npos);
  EXPECT_EQ(d.out.find("\"policy\": \"rr"), std::string::npos);
  EXPECT_EQ(d.out.find("\"policy\": \"fifo"), std::string::npos);
  const result n = run("compare --rt-app " + f + " --policies fifo,rr:timeslice=10ms --duration 200ms --no-host-timing --format json");
  ASSERT_EQ(n.code, 0);
  EXPECT_NE(n.out.find("\"policy\": \"fifo\""), std::string::npos);
  EXPECT_NE(n.out.find("\"policy\": \"rr:timeslice=10ms\""), std::string::npos);
}

}  // namespace
