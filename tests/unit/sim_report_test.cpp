// The simulator's output layer on hand-built inputs, where every expected byte can be worked out
// by hand: the ftrace lines Perfetto parses (sim/trace.hpp), the output files that are swapped
// in whole or not at all (sim/output_file.hpp), the JSON, CSV and tables of a run
// (sim/report.hpp), and the charts' numbers (sim/svg.hpp, sim/plots.hpp). The CLI suites and the
// goldens check these through whole simulations, where a wrong unit, a swapped pair of fields or
// a half-written file can hide behind figures nobody computed independently.

#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <ios>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "schedcore/sim/json.hpp"
#include "schedcore/sim/metrics.hpp"
#include "schedcore/sim/output_file.hpp"
#include "schedcore/sim/plots.hpp"
#include "schedcore/sim/report.hpp"
#include "schedcore/sim/scenarios.hpp"
#include "schedcore/sim/svg.hpp"
#include "schedcore/sim/trace.hpp"

using namespace schedcore::sim;

namespace {

// ---------------------------------------------------------------------------------------------
// ftrace text (trace.hpp). Perfetto's systrace tokenizer reads `comm-pid [cpu] flags secs.usecs:
// event: fields`; the fields are the kernel's TP_printk formats. The expected lines are written
// out in full, so a field swapped, renamed or printed in another unit fails here.

TEST(SimReportTrace, TheFileStartsWithTheNopTracersHeader) {
  const trace_writer tw;
  // Perfetto (and catapult) recognise ftrace text by this first line.
  EXPECT_EQ(tw.text().rfind("# tracer: nop\n#\n", 0), 0u) << tw.text();
}

TEST(SimReportTrace, EachEventIsTheKernelsLine) {
  trace_writer tw;
  const std::size_t header = tw.text().size();
  // 3.0012345 s: ftrace's ns2usecs rounds half up (3.001235, not 3.001234), the microseconds
  // keep their leading zeros, the CPU has three digits, an idle prev task is `<idle>-0` in the
  // line's head whatever its comm, the pid is left-aligned in five columns.
  tw.sched_switch(3001234500, 2, "swapper/2", 0, 120, "R", "make", 1001, 115);
  tw.waking(1000, 0, {"make", 1001}, "cc1", 1002, 110, 1);
  tw.wakeup(2000, 0, {"make", 1001}, "cc1", 1002, 110, 1, false);
  tw.wakeup(3000, 0, {"make", 1001}, "cc1", 1002, 110, 1, true);
  tw.migrate_task(4000, 1, {"make", 1001}, "cc1", 1002, 110, 1, 3);
  tw.pi_setprio(5000, 0, {"make", 1001}, "cc1", 1002, 110, 89);
  tw.counter(6000, 0, "cc1", 1002, "latency_us", 6000);
  tw.cpu_frequency(7000, 3, {"<idle>", 0}, 1800000);
  tw.signal_generate(8000, 1, "cc1", 1002, sigxcpu_signo);
  const std::string want =
      "          <idle>-0     [002] d..2     3.001235: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 "
      "prev_state=R ==> next_comm=make next_pid=1001 next_prio=115\n"
      "            make-1001  [000] d..2     0.000001: sched_waking: comm=cc1 pid=1002 prio=110 target_cpu=001\n"
      "            make-1001  [000] d..2     0.000002: sched_wakeup: comm=cc1 pid=1002 prio=110 target_cpu=001\n"
      "            make-1001  [000] d..2     0.000003: sched_wakeup_new: comm=cc1 pid=1002 prio=110 target_cpu=001\n"
      "            make-1001  [001] d..2     0.000004: sched_migrate_task: comm=cc1 pid=1002 prio=110 orig_cpu=1 dest_cpu=3\n"
      "            make-1001  [000] d..2     0.000005: sched_pi_setprio: comm=cc1 pid=1002 oldprio=110 newprio=89\n"
      "             cc1-1002  [000] d..2     0.000006: tracing_mark_write: C|1002|latency_us|6000\n"
      "          <idle>-0     [003] d..2     0.000007: cpu_frequency: state=1800000 cpu_id=3\n"
      "             cc1-1002  [001] d..2     0.000008: signal_generate: sig=24 errno=0 code=128 comm=cc1 pid=1002 grp=1 "
      "res=0\n";
  EXPECT_EQ(tw.text().substr(header), want);
}

TEST(SimReportTrace, RoundingCarriesIntoTheSeconds) {
  trace_writer tw;
  const std::size_t header = tw.text().size();
  // 0.9999995 s rounds to the next whole second, as ftrace prints it.
  tw.counter(999999500, 0, "t", 1000, "v", 1);
  EXPECT_EQ(tw.text().substr(header), "               t-1000  [000] d..2     1.000000: tracing_mark_write: C|1000|v|1\n");
}

// ---------------------------------------------------------------------------------------------
// Output files (output_file.hpp).

// Fixed before the first output_umask() call (it reads the umask once), so that the mode a new
// output file gets is known: 0666 & ~027 = 0640.
const mode_t test_umask = [] {
  ::umask(027);
  return static_cast<mode_t>(027);
}();

// A fresh directory for one test.
std::string scratch_dir(const char* name) {
  std::string tmpl = ::testing::TempDir() + "sim_report_" + name + ".XXXXXX";
  const char* made = ::mkdtemp(&tmpl[0]);
  return made == nullptr ? std::string() : tmpl;
}

std::set<std::string> listing(const std::string& dir) {
  std::set<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return names;
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.insert(n);
  }
  ::closedir(d);
  return names;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(SimReportOutputFile, AReplacedFileIsSwappedInWhole) {
  const std::string dir = scratch_dir("swap");
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/out.txt";
  { std::ofstream(path) << "old\n"; }
  // A viewer that has the old trace open keeps reading the old trace: the new text arrives by a
  // rename, not by truncating and rewriting the file under the reader.
  const int reader = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(reader, 0);
  ASSERT_TRUE(write_output_file(path, "new text\n"));
  char buf[32] = {};
  const ssize_t n = ::read(reader, buf, sizeof buf - 1);
  ::close(reader);
  EXPECT_EQ(std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0u), "old\n");
  EXPECT_EQ(slurp(path), "new text\n");
  EXPECT_EQ(listing(dir), std::set<std::string>{"out.txt"});
}

TEST(SimReportOutputFile, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
  const std::string dir = scratch_dir("efbig");
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/out.txt";
  { std::ofstream(path) << "old\n"; }
  // RLIMIT_FSIZE makes the write stop after 16 bytes (EFBIG, SIGXFSZ ignored): a write that
  // fails half-way, deterministically.
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  rlimit small = saved;
  small.rlim_cur = 16;
  void (*previous)(int) = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string why;
  const bool ok = write_output_file(path, std::string(4096, 'x'), &why);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  EXPECT_FALSE(ok) << "16 of 4096 bytes were written and called a success";
  EXPECT_EQ(why, std::strerror(EFBIG));
  EXPECT_EQ(slurp(path), "old\n") << "the old file must survive a failed write whole";
  EXPECT_EQ(listing(dir), std::set<std::string>{"out.txt"}) << "the temporary file must be removed";
}

TEST(SimReportOutputFile, ANewFileGetsFopensModeUnderTheUmask) {
  ASSERT_EQ(output_umask(), test_umask);
  const std::string dir = scratch_dir("mode");
  ASSERT_FALSE(dir.empty());
  ASSERT_TRUE(write_output_file(dir + "/new.txt", "x"));
  struct stat st {};
  ASSERT_EQ(::stat((dir + "/new.txt").c_str(), &st), 0);
  // mkstemp creates 0600; the file must get what `fopen(path, "w")` would give it.
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

// A rewritten file keeps its permission bits, as a shell's `>` keeps them: a private (0600) trace
// does not turn readable by others because it was written again, and a group-writable one stays
// so whatever the umask (027 here).
TEST(SimReportOutputFile, AReplacedFileKeepsItsPermissionBits) {
  const std::string dir = scratch_dir("keepmode");
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/out.txt";
  struct stat st {};
  for (const mode_t mode : {mode_t{0600}, mode_t{0664}}) {
    { std::ofstream(path) << "old\n"; }
    ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    ASSERT_TRUE(write_output_file(path, "new\n"));
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, mode) << "octal " << std::oct << (st.st_mode & 0777) << ", was " << mode;
    EXPECT_EQ(slurp(path), "new\n");
  }
}

// Any name the directory can hold can be written: the temporary file beside it must not need a
// longer name than the file system allows.
TEST(SimReportOutputFile, ANameOfTheLongestLengthCanBeWritten) {
  const std::string dir = scratch_dir("longname");
  ASSERT_FALSE(dir.empty());
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  ASSERT_GT(name_max, 8);
  const std::string name(static_cast<std::size_t>(name_max), 'n');
  std::string why;
  ASSERT_TRUE(write_output_file(dir + "/" + name, "x\n", &why)) << why;
  EXPECT_EQ(slurp(dir + "/" + name), "x\n");
  EXPECT_EQ(listing(dir), std::set<std::string>{name});
}

TEST(SimReportOutputFile, DevicesAreWrittenThroughAndTheirErrorsReported) {
  struct stat st {};
  ASSERT_TRUE(write_output_file("/dev/null", "x"));
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null must stay a device";
  if (::stat("/dev/full", &st) != 0) GTEST_SKIP() << "no /dev/full here";
  // /dev/full refuses every write with ENOSPC: a trace that was not written is an error.
  std::string why;
  EXPECT_FALSE(write_output_file("/dev/full", "x", &why));
  EXPECT_EQ(why, std::strerror(ENOSPC));
}

// A FIFO whose reader leaves early (a viewer closed, `head -c 16`): the write fails with EPIPE,
// reported, instead of a SIGPIPE that kills schedsim (exit 141, no message) before it can name
// the output; the signal is not left pending either, and the mask is as it was.
TEST(SimReportOutputFile, AFifoWhoseReaderLeavesIsAnErrorNotASignal) {
  const std::string dir = scratch_dir("fifo");
  ASSERT_FALSE(dir.empty());
  const std::string fifo = dir + "/trace.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);  // meets the writer's open
    char head[16];
    if (fd >= 0) {
      (void)!::read(fd, head, sizeof head);
      ::close(fd);
    }
  });
  std::string why;
  // 1 MiB: more than a pipe holds (64 KiB), so the writer is still writing when the reader goes.
  const bool ok = write_output_file(fifo, std::string(1 << 20, 'x'), &why);
  reader.join();
  EXPECT_FALSE(ok);
  EXPECT_EQ(why, std::strerror(EPIPE));
  sigset_t pending, mask;
  ASSERT_EQ(::sigpending(&pending), 0);
  EXPECT_EQ(sigismember(&pending, SIGPIPE), 0) << "SIGPIPE left pending";
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, nullptr, &mask), 0);
  EXPECT_EQ(sigismember(&mask, SIGPIPE), 0) << "SIGPIPE left blocked";
}

TEST(SimReportOutputFile, ADirectoryIsRefusedByName) {
  const std::string dir = scratch_dir("dir");
  ASSERT_FALSE(dir.empty());
  ASSERT_EQ(::mkdir((dir + "/sub").c_str(), 0755), 0);
  std::string why;
  EXPECT_FALSE(write_output_file(dir + "/sub", "x", &why));
  EXPECT_EQ(why, "a directory");
  EXPECT_EQ(listing(dir), std::set<std::string>{"sub"});
}

TEST(SimReportOutputFile, LinksAreWrittenThrough) {
  const std::string dir = scratch_dir("links");
  ASSERT_FALSE(dir.empty());
  { std::ofstream(dir + "/target.txt") << "old\n"; }
  ASSERT_EQ(::symlink("target.txt", (dir + "/link").c_str()), 0);
  ASSERT_TRUE(write_output_file(dir + "/link", "via link\n"));
  struct stat st {};
  ASSERT_EQ(::lstat((dir + "/link").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link must stay a link";
  EXPECT_EQ(slurp(dir + "/target.txt"), "via link\n");
  // A dangling relative link names a file beside the link (not in the current directory, which
  // is the build directory here).
  ASSERT_EQ(::symlink("made.txt", (dir + "/dangling").c_str()), 0);
  ASSERT_TRUE(write_output_file(dir + "/dangling", "made\n"));
  EXPECT_EQ(slurp(dir + "/made.txt"), "made\n");
  EXPECT_EQ(listing(dir), (std::set<std::string>{"dangling", "link", "made.txt", "target.txt"}));
}

TEST(SimReportOutputFile, SameFileSeesThroughLinks) {
  const std::string dir = scratch_dir("same");
  ASSERT_FALSE(dir.empty());
  { std::ofstream(dir + "/a") << "a"; }
  { std::ofstream(dir + "/b") << "b"; }
  ASSERT_EQ(::symlink("a", (dir + "/to-a").c_str()), 0);
  EXPECT_TRUE(same_file(dir + "/a", dir + "/to-a"));
  EXPECT_FALSE(same_file(dir + "/a", dir + "/b"));
  EXPECT_FALSE(same_file(dir + "/a", dir + "/missing"));
}

// ---------------------------------------------------------------------------------------------
// JSON, CSV and tables (report.hpp), of a run whose every figure is chosen so that each field has
// a value of its own: a field printed from its neighbour, or in another unit, shows.

run_result sample_run() {
  run_result r;
  r.policy = "cfs";
  r.scenario = "tiny";
  r.cpus = 2;
  r.capacity = {1024, 512};
  r.hz = 250;
  r.seed = 7;
  r.duration_ns = 2000000000;
  run_totals& t = r.totals;
  t.context_switches = 2469;
  t.cs_per_sec = 1234.5678;
  t.idle_pct = 12.3456;
  t.makespan_ns = 1500000000;
  t.idle_ns = 600000000;
  t.overhead_ns = 3000;
  t.task_cpu_ns = 1700000000;
  t.longest_starvation_ns = 4000000;
  t.events = 99;
  t.migrations = 5;
  t.rt_pushes = 1;
  t.rt_pulls = 2;
  t.dl_pushes = 3;
  t.dl_pulls = 4;
  r.jain = 0.1234567;
  r.jain_tasks = 1;
  r.devices.push_back({"gpu", 3, 1500000, 75.0});
  pipe_result p;
  p.name = "pty";
  p.writes = 10;
  p.reads = 4;
  p.items = 10;
  p.mean_batch = 2.5;
  r.pipes.push_back(p);
  r.notes = {"first", "second"};
  task_result a;
  a.name = "dec,\"1\"";
  a.group = "g";
  a.kind = "normal";
  a.nice = -5;
  a.cpu_ns = 1000000000;
  a.wait_ns = 300;
  a.max_wait_ns = 200;
  a.switches = 7;
  a.migrations = 1;
  a.start_ns = 100;
  a.exit_ns = 900000000;
  a.latency.p50 = 10;
  a.latency.p99 = 20;
  a.latency.max = 30;
  a.latency.count = 4;
  a.deadlines_met = 9;
  a.deadlines_missed = 1;
  a.frames = 50;
  a.fps = 24.98765;
  a.frame_interval.p50 = 40000000;
  a.frame_interval.p99 = 41000000;
  a.frame_interval.max = 42000000;
  a.frame_interval.stddev = 1234.4;
  a.slack.periods = 3;
  a.slack.overruns = 1;
  a.slack.min = -500;
  a.slack.p50 = 700;
  a.reports_overrun = true;
  a.sigxcpu = 2;
  a.has_jobs = true;
  a.jobs.samples = 100;
  a.jobs.avg_ms = 1.5;
  a.jobs.rms_ms = 2.25;
  a.jobs.sd_ms = 1.75;
  a.jobs.max_ms = 9.5;
  a.jobs.desired_cpu_pct = 12.3456;
  a.jobs.deadlines_met_pct = 99.5;
  r.tasks.push_back(a);
  task_result b;
  // A quote, a backslash, a control character and a byte that is not UTF-8.
  b.name = std::string("q\"\\") + '\x01' + '\xff';
  b.kind = "fifo";
  b.rt_priority = 50;
  r.tasks.push_back(b);
  return r;
}

// The run on a machine with one performance domain (energy fields).
run_result energy_run() {
  run_result r = sample_run();
  r.capacity.clear();
  r.totals.rt_pushes = r.totals.rt_pulls = r.totals.dl_pushes = r.totals.dl_pulls = 0;
  domain_result d;
  d.name = "little";
  d.cpus = 2;
  d.capacity = 512;
  d.energy_nj = 2500000;
  d.work_ns = 800;
  d.freq_changes = 3;
  d.time_in_state = {{500000, 3000}, {1000000, 1000}};  // time-weighted mean 625000 kHz
  r.domains.push_back(d);
  return r;
}

// Strict JSON (no bare members, no single quotes), as a consumer's parser reads it.
json::value strict_parse(const std::string& text) {
  json::parse_options o;
  o.allow_bare_members = false;
  o.allow_single_quotes = false;
  return json::parse(text, "<report>", o);
}

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

TEST(SimReportJson, EveryFieldHasItsValueAndUnit) {
  const std::string j = to_json(sample_run());
  EXPECT_TRUE(has(j, "{ \"policy\": \"cfs\", \"scenario\": \"tiny\", \"cpus\": 2, \"hz\": 250, \"seed\": 7, "
                     "\"duration_ns\": 2000000000, \"warmup_ns\": 0, \"capacity\": [1024, 512],\n"))
      << j;
  EXPECT_TRUE(has(j, "\"totals\": { \"context_switches\": 2469, \"cs_per_sec\": 1234.568, \"idle_pct\": 12.346, "
                     "\"makespan_ns\": 1500000000, \"idle_ns\": 600000000, \"overhead_ns\": 3000, \"task_cpu_ns\": 1700000000, "
                     "\"longest_starvation_ns\": 4000000, \"migrations\": 5, \"misfit_moves\": 0, \"rt_pushes\": 1, "
                     "\"rt_pulls\": 2, \"dl_pushes\": 3, \"dl_pulls\": 4, \"events\": 99, \"events_per_sec\": 0 },\n"))
      << j;
  EXPECT_TRUE(has(j, "\"fairness\": { \"jain\": 0.123457, \"tasks\": 1 },\n")) << j;
  EXPECT_TRUE(has(j, "\"devices\": [{ \"name\": \"gpu\", \"requests\": 3, \"busy_ns\": 1500000, \"busy_pct\": 75.000 }],\n"))
      << j;
  EXPECT_TRUE(has(j, "\"pipes\": [{ \"name\": \"pty\", \"writes\": 10, \"reads\": 4, \"items\": 10, \"mean_batch\": 2.500, "
                     "\"reader_blocks\": 0, \"writer_blocks\": 0, \"max_items\": 0 }],\n"))
      << j;
  EXPECT_TRUE(has(j, "\"notes\": [\"first\", \"second\"],\n")) << j;
  EXPECT_TRUE(has(j, "{ \"name\": \"dec,\\\"1\\\"\", \"group\": \"g\", \"policy\": \"normal\", \"nice\": -5, "
                     "\"rt_priority\": 0, \"cpu_ns\": 1000000000, \"wait_ns\": 300, \"max_wait_ns\": 200, \"switches\": 7, "
                     "\"migrations\": 1, \"start_ns\": 100, \"exit_ns\": 900000000,\n"))
      << j;
  EXPECT_TRUE(has(j, "\"latency_ns\": { \"p50\": 10, \"p99\": 20, \"max\": 30, \"count\": 4 }, \"deadlines\": { \"met\": 9, "
                     "\"missed\": 1 }, \"fps\": 24.988, \"frames\": 50, \"frame_interval_ns\": { \"p50\": 40000000, "
                     "\"p99\": 41000000, \"max\": 42000000, \"stddev\": 1234 }, \"slack_ns\": { \"periods\": 3, "
                     "\"overruns\": 1, \"min\": -500, \"p50\": 700 }, \"sigxcpu\": 2,\n"))
      << j;
  EXPECT_TRUE(has(j, "\"interbench\": { \"samples\": 100, \"avg_ms\": 1.500, \"sd_rms_ms\": 2.250, \"sd_true_ms\": 1.750, "
                     "\"max_ms\": 9.500, \"desired_cpu_pct\": 12.35, \"deadlines_met_pct\": 99.50 } }"))
      << j;
}

TEST(SimReportJson, NamesAreEscapedAndTheDocumentIsStrictJson) {
  const run_result r = sample_run();
  const std::string j = to_json(r);
  // RFC 8259: quote and backslash escaped, a control character as \u00XX, a byte that starts no
  // UTF-8 character replaced by U+FFFD.
  EXPECT_TRUE(has(j, "\"name\": \"q\\\"\\\\\\u0001\\ufffd\"")) << j;
  json::value v;
  ASSERT_NO_THROW(v = strict_parse(j)) << j;
  ASSERT_TRUE(v.is_object());
  const json::value* tasks = v.find("tasks");
  ASSERT_NE(tasks, nullptr);
  ASSERT_EQ(tasks->items.size(), 2u);
  const json::value* name = tasks->items[1].find("name");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->s, std::string("q\"\\\x01") + "\xEF\xBF\xBD");
  const json::value* notes = v.find("notes");
  ASSERT_NE(notes, nullptr);
  EXPECT_EQ(notes->items.size(), 2u);
}

TEST(SimReportJson, RunsAreAnArrayWithoutATrailingComma) {
  const run_result r = sample_run();
  const std::string one = to_json(std::vector<run_result>{r}, true);
  EXPECT_EQ(one.rfind("[\n  {", 0), 0u) << "compare and sweep print an array even for one row";
  EXPECT_EQ(one.substr(one.size() - 6), "] }\n]\n");
  const std::string two = to_json(std::vector<run_result>{r, r});
  EXPECT_FALSE(has(two, "] },\n]")) << two;
  json::value v;
  ASSERT_NO_THROW(v = strict_parse(two)) << two;
  ASSERT_TRUE(v.is_array());
  EXPECT_EQ(v.items.size(), 2u);
}

TEST(SimReportJson, EnergyIsInMillijoulesAndTheMeanFrequencyIsTimeWeighted) {
  const run_result r = energy_run();
  const std::string j = to_json(r);
  // 2500000 nJ = 2.5 mJ; (500000 kHz x 3000 ns + 1000000 kHz x 1000 ns) / 4000 ns = 625000 kHz.
  EXPECT_TRUE(has(j, "\"energy\": { \"total_mj\": 2.500000, \"work_ns\": 800, \"eas_wakeups\": 0, \"domains\": [{ \"name\": "
                     "\"little\", \"first_cpu\": 0, \"cpus\": 2, \"capacity\": 512, \"energy_nj\": 2500000, \"work_ns\": 800, "
                     "\"freq_changes\": 3, \"mean_khz\": 625000, \"time_in_state_ns\": { \"500000\": 3000, \"1000000\": 1000 } }] },\n"))
      << j;
  EXPECT_TRUE(has(task_table(r), "energy 2.5 mJ for 0.000 s of work (at a 1024 CPU's top speed):  little 2.5 mJ (mean 625 MHz, "
                                  "3 changes)\n"))
      << task_table(r);
  EXPECT_TRUE(has(to_csv({r}), "cfs,tiny,_total,,1700000000,,,,,,,,,,,,,,2469,1234.568,12.346,1500000000,0.123457,4000000,99,"
                               "2.500000,800,7\n"))
      << to_csv({r});
  // A machine with performance domains gets the energy columns in the seed tables.
  EXPECT_TRUE(has(seed_table({r}, "kernbench-4cpu"), "energy mJ")) << seed_table({r}, "kernbench-4cpu");
}

TEST(SimReportCsv, HeaderRowsAndTotalsInTheHeadersOrder) {
  const std::string c = to_csv({sample_run()});
  const std::string want =
      "policy,scenario,task,nice,cpu_ns,wait_ns,switches,lat_p50_ns,lat_p99_ns,lat_max_ns,deadlines_met,deadlines_missed,"
      "fps,slack_periods,slack_overruns,slack_min_ns,slack_p50_ns,sigxcpu,"
      "context_switches,cs_per_sec,idle_pct,makespan_ns,jain,longest_starvation_ns,events,energy_mj,work_ns,seed\n"
      // RFC 4180: a field with a comma or a quote is quoted, its quotes doubled.
      "cfs,tiny,\"dec,\"\"1\"\"\",-5,1000000000,300,7,10,20,30,9,1,24.988,3,1,-500,700,2,,,,,,,,,,7\n"
      "cfs,tiny,\"q\"\"\\\x01\xff\",0,0,0,0,0,0,0,0,0,0.000,,,,,,,,,,,,,,,7\n"
      "cfs,tiny,_total,,1700000000,,,,,,,,,,,,,,2469,1234.568,12.346,1500000000,0.123457,4000000,99,,,7\n";
  EXPECT_EQ(c, want);
}

TEST(SimReportTable, TaskTableUnits) {
  const run_result r = sample_run();
  const std::string t = task_table(r);
  EXPECT_EQ(t.rfind("policy cfs  scenario tiny  cpus 2  duration 2.000 s\n", 0), 0u) << t;
  // cpu 1 s = 1000.0 ms, wait 300 ns = 0.0 ms, latencies in ms with three decimals.
  EXPECT_TRUE(has(t, "  1000.0      0.0         7       0.000       0.000       0.000       9          1  25.0")) << t;
  EXPECT_TRUE(has(t, "context switches 2469 (1235/s)  idle 12.3%  makespan 1.500 s  jain 0.123  longest starvation 4.0 ms  "
                     "events 99 (0/s host)\n"))
      << t;
}

TEST(SimReportTable, RenderTablePadsByCharactersAndRulesTheHeader) {
  // "Über" is 5 bytes and 4 columns; two spaces between columns; numbers right-aligned.
  EXPECT_EQ(render_table({{"name", "v"}, {"\xC3\x9C" "ber", "1"}, {"x", "22"}}),
            "name   v\n--------\n\xC3\x9C" "ber   1\nx     22\n");
}

TEST(SimReportTable, ReplicatedCellsAreMeanAndSampleSdWithTheirCount) {
  double mean = 0, sd = 0;
  mean_and_sd({1, 2, 3, 4}, mean, sd);
  EXPECT_DOUBLE_EQ(mean, 2.5);
  EXPECT_NEAR(sd, 1.2909944487358056, 1e-12);  // sqrt(5 / 3): n - 1 in the denominator
  run_result with_gpu = sample_run(), without = sample_run();
  without.devices.clear();
  EXPECT_EQ(metric_over_runs({&with_gpu, &without}, {"gpu%", "", "busy:gpu"}), "75.0 (n=1)");
}

// Seed-table metrics of a run whose tasks make each column's arithmetic visible.
run_result metric_run() {
  run_result r;
  r.policy = "p";
  r.scenario = "m";
  r.duration_ns = 10000000000;
  r.totals.cs_per_sec = 1234.5678;
  r.totals.idle_pct = 12.3456;
  task_result game;
  game.name = "game";
  game.group = "g";
  game.cpu_ns = 6;
  game.deadlines_met = 3;
  game.deadlines_missed = 1;
  game.latency.p50 = 1000000;
  game.latency.p99 = 2500000;
  game.latency.mean = 1e6;
  game.latency.count = 1;
  game.response.p99 = 7000000;
  game.frame_interval.stddev = 1500000;
  game.start_ns = 1000000000;
  game.exit_ns = 3500000000;
  game.wait_ns = 9000000;
  game.switches = 3;
  game.slack.periods = 2;
  game.slack.min = -2000000;
  task_result tick;
  tick.name = "tick";
  tick.group = "g";
  tick.cpu_ns = 3;
  tick.latency.mean = 4e6;
  tick.latency.count = 3;
  tick.slack.periods = 5;
  tick.slack.min = -1000000;
  task_result idle;
  idle.name = "idle";
  idle.cpu_ns = 1;
  r.tasks = {game, tick, idle};
  return r;
}

TEST(SimReportTable, SeedTableMetricsByHand) {
  const run_result r = metric_run();
  auto v = [&r](const char* task, const char* metric) { return metric_value(r, {"", task, metric}); };
  EXPECT_EQ(v("", "cs_s"), "1235");
  EXPECT_EQ(v("", "idle"), "12.3");
  EXPECT_EQ(v("game", "met_pct"), "75.0");       // 3 of 4 frames
  EXPECT_EQ(v("game", "lat_p99_ms"), "2.50");
  EXPECT_EQ(v("game", "resp_p99_ms"), "7.00");   // the response, not the wakeup latency
  EXPECT_EQ(v("game", "fsd_ms"), "1.50");
  EXPECT_EQ(v("game", "life_ms"), "2500");       // exit - start
  EXPECT_EQ(v("game", "wait_avg_ms"), "3.00");   // 9 ms over 3 switches
  EXPECT_EQ(v("", "slack_min_ms"), "-2.000");    // the worst slack over timer-driven tasks
  EXPECT_EQ(v("", "overruns"), "0");
  EXPECT_EQ(v("group:g", "lat_avg_ms"), "3.250");  // pooled: (1 ms x 1 + 4 ms x 3) / 4 samples
  EXPECT_EQ(v("", "top_pct:1"), "60.0");         // the busiest task's 6 of 10
}

TEST(SimReportTable, InterbenchTableUnitsAndColumns) {
  run_result rt;
  rt.scenario = "interbench/audio/burn:r";
  task_result a;
  a.name = "audio";
  a.has_jobs = true;
  a.jobs.avg_ms = 1.5;
  a.jobs.deadlines_met_pct = 99.5;
  rt.tasks.push_back(a);
  // With `r` interbench prints microseconds: 1.5 ms is 1500.000.
  const std::string us = interbench_table({&rt});
  EXPECT_TRUE(has(us, "latency avg (us)")) << us;
  EXPECT_TRUE(has(us, "1500.000")) << us;
  // `r` is one item of the option suffix wherever it stands (D= follows it in the canonical
  // order); without it the table stays in ms.
  for (const char* name : {"interbench/audio/burn:r,D=500", "interbench/audio/burn:B=5,r,D=500", "interbench/audio/burn:L=2,r"}) {
    rt.scenario = name;
    const std::string t = interbench_table({&rt});
    EXPECT_TRUE(has(t, "latency avg (us)") && has(t, "1500.000")) << name << "\n" << t;
  }
  for (const char* name : {"interbench/audio/burn", "interbench/audio/burn:D=500", "interbench/audio/burn:B=5,N=3"}) {
    rt.scenario = name;
    const std::string t = interbench_table({&rt});
    EXPECT_TRUE(has(t, "latency avg (ms)") && has(t, "1.500")) << name << "\n" << t;
  }
  rt.scenario = "interbench/audio/burn:r";
  run_result gaming = rt;
  gaming.scenario = "interbench/gaming/burn";
  gaming.tasks[0].name = "gaming";
  // Gaming has no deadlines: its column is "-", not a percentage.
  const std::string g = interbench_table({&gaming});
  EXPECT_TRUE(has(g, "1.500")) << g;
  EXPECT_EQ(g.substr(g.size() - 2), "-\n") << g;
}

// ---------------------------------------------------------------------------------------------
// SVG (svg.hpp).

TEST(SimReportSvg, TextAndNumbers) {
  EXPECT_EQ(svg::escape(std::string("a&b<c>\"d'e") + '\x01'), "a&amp;b&lt;c&gt;&quot;d&#39;e");  // no control chars in XML
  EXPECT_EQ(svg::num(-0.04), "0");
  EXPECT_EQ(svg::num(2.5, 3), "2.5");
  EXPECT_EQ(svg::tick_label(5000), "5000");
  EXPECT_EQ(svg::tick_label(20000), "20k");
  EXPECT_EQ(svg::tick_label(2e6), "2M");
}

TEST(SimReportSvg, ScalesAndTicks) {
  svg::detail::scale log_scale;
  log_scale.lo = 1;
  log_scale.hi = 100;
  log_scale.log = true;
  log_scale.px0 = 0;
  log_scale.px1 = 100;
  EXPECT_DOUBLE_EQ(log_scale.t(10), 50);  // one decade of two
  EXPECT_DOUBLE_EQ(svg::detail::nice_step(25, 5), 5);
  svg::axis log_axis;
  log_axis.log = true;
  svg::detail::scale sc;
  EXPECT_EQ(svg::detail::ticks(log_axis, 1, 100, sc, 6), (std::vector<double>{1, 2, 5, 10, 20, 50, 100}));
  svg::axis linear;  // includes 0 by default
  svg::detail::ticks(linear, 5, 10, sc, 5);
  EXPECT_EQ(sc.lo, 0);
}

TEST(SimReportSvg, ChartGeometry) {
  svg::chart c;
  c.x.range(0, 10);
  c.y.range(0, 10);
  svg::series line, step;
  line.points = step.points = {{0, 0}, {10, 10}};
  step.step = true;
  c.lines = {line, step};
  const std::string s = c.render();
  EXPECT_TRUE(has(s, "xmlns=\"http://www.w3.org/2000/svg\"")) << s;
  // Plot area x 70..960, y 40..370: larger values are drawn higher; a step goes across, then up.
  EXPECT_TRUE(has(s, "<path d=\"M70 370L960 40\"")) << s;
  EXPECT_TRUE(has(s, "<path d=\"M70 370H960V40\"")) << s;
  svg::bar_chart b;
  b.categories = {"a"};
  b.bars = {{"s", {-5}}};
  // A negative bar hangs from the zero line (the top of a [-5, 0] axis) down to -5.
  const std::string bs = b.render();
  EXPECT_TRUE(has(bs, "<rect x=\"159\" y=\"40\" width=\"711\" height=\"276\"")) << bs;
  svg::timeline tl;
  tl.x1 = 10;
  tl.rows = {{"CPU 0", {{1, 2, 3, "x"}}}};
  EXPECT_TRUE(has(tl.render(), "fill=\"" + svg::color(3) + "\"><title>x</title>")) << tl.render();
}

// ---------------------------------------------------------------------------------------------
// Plots (plots.hpp).

TEST(SimReportPlots, LatencyCdfIsInMillisecondsAndPercentAtOrBelow) {
  run_result r;
  r.policy = "p";
  task_result t;
  t.latency_samples = {4000000, 2000000, 2000000};
  r.tasks.push_back(t);
  const svg::chart c = plots::latency_cdf({&r}, "w");
  ASSERT_EQ(c.lines.size(), 1u);
  // 2 ms: 2 of 3 samples at or below it; 4 ms: all.
  const auto& p = c.lines[0].points;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], std::make_pair(2.0, 0.0));
  EXPECT_EQ(p[1].first, 2.0);
  EXPECT_NEAR(p[1].second, 200.0 / 3, 1e-9);
  EXPECT_EQ(p[2], std::make_pair(4.0, 100.0));
}

TEST(SimReportPlots, FpsNiceShareSweepAndBench) {
  run_result r;
  r.policy = "p";
  r.duration_ns = 3000000000;
  r.totals.makespan_ns = 1500000000;
  task_result t;
  t.name = "game";
  t.frame_times = {100000000, 200000000, 1500000000};
  r.tasks.push_back(t);
  const svg::chart fps = plots::fps_over_time({&r}, "w", "game");
  ASSERT_EQ(fps.lines.size(), 1u);
  // Each second's count is drawn at the middle of that second.
  EXPECT_EQ(fps.lines[0].points, (std::vector<std::pair<double, double>>{{0.5, 2}, {1.5, 1}, {2.5, 0}}));

  const svg::chart share = plots::nice_share({});
  ASSERT_EQ(share.lines.size(), 1u);  // the load-weight reference only
  double total = 0;
  for (int n = -20; n <= 19; ++n) total += nice_weight(n);
  EXPECT_EQ(share.lines[0].points.front(), std::make_pair(-20.0, 100.0 * nice_weight(-20) / total));
  EXPECT_GT(share.lines[0].points.front().second, share.lines[0].points.back().second);

  const svg::chart sweep = plots::sweep_chart({{"l", {{1.0, &r}}}}, "w", "makespan");
  EXPECT_EQ(sweep.lines[0].points[0].second, 1.5);  // seconds

  const auto pts = plots::parse_bench_csv("name,iterations,real_time,cpu_time,time_unit\n\"BM_cycle/cfs/64\",100,3,2.5,us\n");
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_EQ(pts[0].policy, "cfs");
  EXPECT_EQ(pts[0].n, 64);
  EXPECT_EQ(pts[0].ns, 2500);
}

TEST(SimReportPlots, TimelinesReadTheTraceBack) {
  trace_writer tw;
  tw.sched_switch(1234567000, 2, "swapper/2", 0, 120, "R", "make", 1003, 120);
  const auto sw = plots::parse_switches(tw.text());
  ASSERT_EQ(sw.size(), 1u);
  EXPECT_EQ(sw[0].ns, 1234567000);
  EXPECT_EQ(sw[0].cpu, 2);
  EXPECT_EQ(sw[0].next_pid, 1003);
  EXPECT_EQ(sw[0].next, "make");
  std::map<int, std::string> seen;
  const auto rows = plots::timeline_rows(tw.text(), 3, 2000000000, seen, 10);
  ASSERT_EQ(rows.size(), 3u);
  ASSERT_EQ(rows[2].spans.size(), 1u);
  EXPECT_EQ(rows[2].spans[0].color, 3u);  // pid 1003: the fourth task created, the same colour under every policy
  run_result odd;
  odd.policy = "a<b";
  EXPECT_TRUE(has(plots::html_table({&odd}, "kernbench-4cpu"), "<td class=\"pol\">a&lt;b</td>"));
}

// ---------------------------------------------------------------------------------------------
// Scenario names (scenarios.hpp): interbench's options are part of a scenario's name, which the
// tables read back (`r` switches the latency columns to microseconds), so the name must be
// canonical and every refused option must leave the caller's options as they were.

TEST(SimReportScenarios, InterbenchOptionsAreCanonicalAndBounded) {
  interbench_options o;
  std::string err;
  ASSERT_TRUE(parse_interbench_options("D=300,r,L=2,N=-5,B=19", o, err)) << err;
  EXPECT_EQ(o.suffix(), ":B=19,N=-5,L=2,r,D=300");  // interbench's order, whatever the order given
  EXPECT_EQ(o.burners, 2);
  for (const char* bad : {"B=20", "N=-21", "B=0000019", "B=1,B=2", "L=0", "r=1", "Q=1"}) {
    interbench_options keep;
    keep.burners = 9;
    EXPECT_FALSE(parse_interbench_options(bad, keep, err)) << bad;
    EXPECT_EQ(keep.burners, 9) << bad;
  }
}

TEST(SimReportScenarios, TheRealTimeMatrixBenchmarksAudioAndVideoOnly) {
  std::vector<resolved_scenario> out;
  std::string err;
  ASSERT_TRUE(resolve_scenario("interbench/all:r", out, err)) << err;
  std::set<std::string> names;
  for (const auto& r : out) names.insert(r.w.name);
  // interbench -r: Audio under the 8 loads, Video under the 7 that are not itself.
  EXPECT_EQ(names.size(), 15u);
  EXPECT_EQ(names.count("interbench/audio/video:r"), 1u);
  EXPECT_EQ(names.count("interbench/video/video:r"), 0u);
  EXPECT_EQ(names.count("interbench/x/burn:r"), 0u);
  EXPECT_FALSE(resolve_scenario("interbench/x/burn:r", out, err));
  EXPECT_EQ(out.size(), 15u) << "a refused name leaves the list as it was";
}

}  // namespace
