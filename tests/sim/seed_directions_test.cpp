// The seed scenarios reproduce the *directions* of ../shared/design/scenarios.md from the
// policies' own mechanisms. Each test runs the built schedsim binary with `--format json`,
// parses the JSON and asserts one direction as an inequality with a margin; each assertion
// names the seed and the scenarios.md line it checks. Directions the model does not reproduce
// are recorded as skipped tests with the measured numbers (the results page explains them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace {

// ------------------------------------------------------------------ a small JSON reader
struct jvalue {
  enum class kind { null, boolean, number, string, array, object } k = kind::null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<jvalue> arr;
  std::vector<std::pair<std::string, jvalue>> obj;

  const jvalue& operator[](const std::string& key) const {
    static const jvalue none;
    for (const auto& kv : obj)
      if (kv.first == key) return kv.second;
    return none;
  }
  double number() const { return num; }
};

class jparser {
 public:
  explicit jparser(const std::string& s) : s_(s) {}
  bool parse(jvalue& out) {
    ok_ = true;
    out = value();
    ws();
    return ok_ && i_ == s_.size();
  }

 private:
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  std::string string_lit() {
    std::string o;
    if (!eat('"')) {
      ok_ = false;
      return o;
    }
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '\\' && i_ < s_.size()) {
        const char e = s_[i_++];
        switch (e) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'u': c = '?'; i_ += 4; break;  // control characters only: not needed here
          default: c = e;
        }
      }
      o += c;
    }
    if (i_ >= s_.size()) ok_ = false;
    ++i_;
    return o;
  }
  jvalue value() {
    jvalue v;
    ws();
    if (i_ >= s_.size()) {
      ok_ = false;
      return v;
    }
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      v.k = jvalue::kind::object;
      if (eat('}')) return v;
      do {
        std::string key = string_lit();
        if (!eat(':')) ok_ = false;
        v.obj.emplace_back(std::move(key), value());
      } while (ok_ && eat(','));
      if (!eat('}')) ok_ = false;
    } else if (c == '[') {
      ++i_;
      v.k = jvalue::kind::array;
      if (eat(']')) return v;
      do v.arr.push_back(value());
      while (ok_ && eat(','));
      if (!eat(']')) ok_ = false;
    } else if (c == '"') {
      v.k = jvalue::kind::string;
      v.str = string_lit();
    } else if (s_.compare(i_, 4, "true") == 0 || s_.compare(i_, 5, "false") == 0) {
      v.k = jvalue::kind::boolean;
      v.b = s_[i_] == 't';
      i_ += v.b ? 4 : 5;
    } else if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
    } else {
      const char* begin = s_.c_str() + i_;
      char* end = nullptr;
      v.num = std::strtod(begin, &end);
      if (end == begin) ok_ = false;
      v.k = jvalue::kind::number;
      i_ += static_cast<std::size_t>(end - begin);
    }
    return v;
  }
  const std::string& s_;
  std::size_t i_ = 0;
  bool ok_ = true;
};

// ------------------------------------------------------------------ running schedsim
std::string run_cli(const std::string& args, int* code) {
  const std::string cmd = std::string(SCHEDSIM_BIN) + " " + args + " 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    *code = -1;
    return out;
  }
  char buf[8192];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  *code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

bool cfs2007_registered() {
  int code = 0;
  const std::string out = run_cli("list", &code);
  return code == 0 && out.find("\n  cfs2007 ") != std::string::npos;
}

/// `schedsim compare ARGS --format json --no-host-timing`, parsed (a non-zero exit or bad JSON
/// fails the test).
std::shared_ptr<jvalue> compare_json(const std::string& args) {
  int code = 0;
  const std::string out = run_cli("compare " + args + " --format json --no-host-timing", &code);
  EXPECT_EQ(code, 0) << out.substr(0, 400);
  auto doc = std::make_shared<jvalue>();
  jparser jp(out);
  EXPECT_TRUE(jp.parse(*doc)) << "schedsim JSON did not parse: " << out.substr(0, 400);
  return doc;
}

/// Runs `compare --scenario sc --policies specs` once per (scenario, policy list) and caches
/// the runs by "scenario|policy".
class runs {
 public:
  static runs& get() {
    static runs r;
    return r;
  }
  /// The run of `policy` on `scenario` (fails the test if absent).
  const jvalue* find(const std::string& scenario_arg, const std::string& policies, const std::string& scenario,
                     const std::string& policy) {
    const std::string key = scenario_arg + "|" + policies;
    if (!done_.count(key)) {
      done_[key] = true;
      auto doc = compare_json("--scenario " + scenario_arg + " --policies " + policies);
      docs_.push_back(doc);
      if (doc->k == jvalue::kind::object) index(*doc);
      for (const auto& r : doc->arr) index(r);
    }
    const auto it = by_.find(scenario + "|" + policy);
    if (it == by_.end()) {
      ADD_FAILURE() << "no run of " << policy << " on " << scenario;
      return nullptr;
    }
    return it->second;
  }

 private:
  void index(const jvalue& r) { by_[r["scenario"].str + "|" + r["policy"].str] = &r; }
  std::map<std::string, bool> done_;
  std::vector<std::shared_ptr<jvalue>> docs_;
  std::map<std::string, const jvalue*> by_;
};

/// Runs `compare --scenario sc --policies specs --seeds N [options]` once per (scenario, policy
/// list, N, options) and caches the runs by "scenario|policy" (N each, in seed order 1..N).
class seeded_runs {
 public:
  static seeded_runs& get() {
    static seeded_runs r;
    return r;
  }
  std::vector<const jvalue*> find(const std::string& scenario_arg, const std::string& policies, int seeds,
                                  const std::string& scenario, const std::string& policy, const std::string& options = "") {
    const std::string key = scenario_arg + "|" + policies + "|" + std::to_string(seeds) + "|" + options;
    if (!done_.count(key)) {
      done_[key] = true;
      auto doc = compare_json("--scenario " + scenario_arg + " --policies " + policies + " --seeds " + std::to_string(seeds) +
                              (options.empty() ? "" : " " + options));
      docs_.push_back(doc);
      for (const auto& r : doc->arr) by_[key + "|" + r["scenario"].str + "|" + r["policy"].str].push_back(&r);
    }
    const std::vector<const jvalue*>& v = by_[key + "|" + scenario + "|" + policy];
    if (static_cast<int>(v.size()) != seeds) ADD_FAILURE() << v.size() << " runs of " << policy << " on " << scenario;
    return v;
  }

 private:
  std::map<std::string, bool> done_;
  std::vector<std::shared_ptr<jvalue>> docs_;
  std::map<std::string, std::vector<const jvalue*>> by_;
};

/// Mean and standard error of the mean (sample sd / sqrt(n)) of a metric over replicated runs.
struct mean_se {
  double mean = 0, se = 0;
};
template <class Metric>
mean_se over_runs(const std::vector<const jvalue*>& runs, Metric metric) {
  mean_se r;
  if (runs.empty()) return r;
  std::vector<double> v;
  for (const jvalue* x : runs) v.push_back(metric(*x));
  for (double x : v) r.mean += x / static_cast<double>(v.size());
  double q = 0;
  for (double x : v) q += (x - r.mean) * (x - r.mean);
  if (v.size() > 1) r.se = std::sqrt(q / static_cast<double>(v.size() - 1) / static_cast<double>(v.size()));
  return r;
}
/// a is below b by at least two standard errors of the difference (the runs of a and b use
/// independent jitter draws, so the errors add in quadrature).
bool clearly_below(const mean_se& a, const mean_se& b) {
  return b.mean - a.mean > 2.0 * std::sqrt(a.se * a.se + b.se * b.se);
}
std::string show(const mean_se& m) {
  char b[64];
  std::snprintf(b, sizeof b, "%.3f (se %.3f)", m.mean, m.se);
  return b;
}

const jvalue& task_of(const jvalue& run, const std::string& name) {
  static const jvalue none;
  for (const auto& t : run["tasks"].arr)
    if (t["name"].str == name || t["name"].str == name + "-0") return t;
  ADD_FAILURE() << "no task " << name << " in " << run["scenario"].str << " / " << run["policy"].str;
  return none;
}
double cs_per_sec(const jvalue& r) { return r["totals"]["cs_per_sec"].number(); }
double idle_pct(const jvalue& r) { return r["totals"]["idle_pct"].number(); }
double makespan_s(const jvalue& r) { return r["totals"]["makespan_ns"].number() / 1e9; }
double user_s(const jvalue& r) { return r["totals"]["task_cpu_ns"].number() / 1e9; }
double frame_sd_ms(const jvalue& t) { return t["frame_interval_ns"]["stddev"].number() / 1e6; }
double missed(const jvalue& t) { return t["deadlines"]["missed"].number(); }
double met(const jvalue& t) { return t["deadlines"]["met"].number(); }

#define REQUIRE_CFS2007()                                                                                 \
  do {                                                                                                    \
    if (!cfs2007_registered()) FAIL() << "cfs2007 not registered in schedsim (examples/schedsim/policies.cpp)"; \
  } while (0)

// ------------------------------------------------------------------ seed 000: desktop-2007
const char* const kDesktopPolicies =
    "cfs2007:granularity=5ms,cfs2007:granularity=2ms,cfs2007:granularity=0,sd:rr_interval=2ms,sd,o1,cfs2007,cfs,eevdf,"
    "bfs,nicksched,goodness24,ref-rr";
const jvalue* desktop(const std::string& policy) {
  return runs::get().find("desktop-2007", kDesktopPolicies, "desktop-2007", policy);
}

// scenarios.md §1: "SD's switch rate well above CFS's at comparable knob settings" (rr_interval
// 2 ms vs sched_granularity_ns 2 ms; seed: 15200-15400 vs 5600-7600 cs/s). Asserted at 1.15x;
// the model gives 1.23x (the golden output pins the figure; the seed's 2x is the next test's).
TEST(SeedDirections, Desktop2007_SdSwitchesMoreThanCfsAtComparableKnobs) {
  REQUIRE_CFS2007();
  const jvalue* sd = desktop("sd:rr_interval=2ms");
  const jvalue* cfs = desktop("cfs2007:granularity=2ms");
  ASSERT_TRUE(sd && cfs);
  EXPECT_GT(cs_per_sec(*sd), 1.15 * cs_per_sec(*cfs))
      << "seed 000, scenarios.md §1 'SD's switch rate well above CFS's at comparable knob settings'";
}

// The seed's factor (~2x, "SD context-switched twice as much") is not reached by the model: see
// the results page. Recorded with the numbers.
TEST(SeedDirections, Desktop2007_SdSwitchRateTwiceCfs_NotReproduced) {
  REQUIRE_CFS2007();
  const jvalue* sd = desktop("sd:rr_interval=2ms");
  const jvalue* cfs = desktop("cfs2007:granularity=2ms");
  ASSERT_TRUE(sd && cfs);
  const double ratio = cs_per_sec(*sd) / cs_per_sec(*cfs);
  if (ratio > 1.5) SUCCEED();
  else
    GTEST_SKIP() << "seed 000, scenarios.md §1 'well above' (seed ~2x): model gives sd:rr_interval=2ms / "
                    "cfs2007:granularity=2ms = "
                 << ratio << " (not reproduced)";
}

// scenarios.md §1: "SD's frame rate steadier (lower variance ...) than CFS and mainline".
// Measured as each player's frame-interval standard deviation, averaged over 32 seeds: the
// players' jitter alone moves one run's value by 0.5-0.9 ms, more than some gaps between rows,
// so a single seed cannot carry the claim. A row counts as steadier only when its mean is lower
// by at least two standard errors of the difference (clearly_below). The seed's observations
// were taken with the cube rotating ("The given observations/numbers are when I move the cube
// ... and view two faces at one time. One face is playing the totem video"), so the claim is
// asserted there, for totem; the rest is recorded below.
const char* const kSteadyPolicies = "cfs2007:granularity=5ms,cfs2007:granularity=2ms,cfs2007:granularity=0,sd:rr_interval=2ms,o1";
const char* const kSteadyOthers[] = {"cfs2007:granularity=5ms", "cfs2007:granularity=2ms", "cfs2007:granularity=0", "o1"};
constexpr int kSteadySeeds = 32;
mean_se frame_sd_over_seeds(const std::string& scenario, const std::string& policy, const std::string& player) {
  return over_runs(seeded_runs::get().find("desktop-2007", kSteadyPolicies, kSteadySeeds, scenario, policy),
                   [&](const jvalue& r) { return frame_sd_ms(task_of(r, player)); });
}

TEST(SeedDirections, Desktop2007Rotating_SdTotemSteadierThanCfsAndMainlineOverSeeds) {
  REQUIRE_CFS2007();
  const mean_se sd = frame_sd_over_seeds("desktop-2007/rotating", "sd:rr_interval=2ms", "totem");
  for (const char* other : kSteadyOthers) {
    const mean_se o = frame_sd_over_seeds("desktop-2007/rotating", other, "totem");
    EXPECT_TRUE(clearly_below(sd, o)) << "seed 000, scenarios.md §1 'SD's frame rate steadier (lower variance)': totem "
                                      << "frame-interval sd (ms, mean over " << kSteadySeeds << " seeds) sd:rr_interval=2ms "
                                      << show(sd) << " vs " << other << " " << show(o);
  }
}

// The same comparison for gmplayer while rotating, and for both players on one cube face (a
// regime the seed gave no video observation for). SD must never be clearly *less* steady than
// another row (that would reverse the seed); where its mean is not clearly below, the test
// skips with the numbers (results page, "SD's video is steadier").
TEST(SeedDirections, Desktop2007_SdVideoSteadierElsewhereOverSeeds_Partial) {
  REQUIRE_CFS2007();
  std::string gaps;
  struct where {
    const char* scenario;
    const char* player;
  };
  for (const where w : {where{"desktop-2007/rotating", "gmplayer"}, where{"desktop-2007", "totem"},
                        where{"desktop-2007", "gmplayer"}}) {
    const mean_se sd = frame_sd_over_seeds(w.scenario, "sd:rr_interval=2ms", w.player);
    for (const char* other : kSteadyOthers) {
      const mean_se o = frame_sd_over_seeds(w.scenario, other, w.player);
      EXPECT_FALSE(clearly_below(o, sd)) << "seed 000 reversed: " << w.scenario << " " << w.player
                                         << " frame-interval sd, sd:rr_interval=2ms " << show(sd) << " vs " << other << " "
                                         << show(o);
      if (!clearly_below(sd, o))
        gaps += std::string(" ") + w.scenario + " " + w.player + ": sd " + show(sd) + " vs " + other + " " + show(o) + ";";
    }
  }
  if (!gaps.empty())
    GTEST_SKIP() << "seed 000, scenarios.md §1 'steadier': SD not clearly steadier (2 standard errors over "
                 << kSteadySeeds << " seeds) in" << gaps;
}

// scenarios.md §1: "(... fewer missed frame deadlines) than CFS" — checked against CFS at the
// seed's granularities, on both videos together. The model's videos are overloaded (the seed's
// "slideshows"), so most frames miss under every policy and the difference is small: recorded
// with the numbers where it does not hold.
TEST(SeedDirections, Desktop2007_SdMissesFewerVideoDeadlinesThanCfs_Partial) {
  REQUIRE_CFS2007();
  const jvalue* sd = desktop("sd:rr_interval=2ms");
  ASSERT_TRUE(sd);
  auto miss_frac = [](const jvalue& r) {
    double m = 0, all = 0;
    for (const char* v : {"totem", "gmplayer"}) {
      m += missed(task_of(r, v));
      all += missed(task_of(r, v)) + met(task_of(r, v));
    }
    return all > 0 ? m / all : 1.0;
  };
  std::string gaps;
  for (const char* other : {"cfs2007:granularity=2ms", "cfs2007:granularity=5ms", "cfs2007:granularity=0"}) {
    const jvalue* o = desktop(other);
    ASSERT_TRUE(o);
    if (!(miss_frac(*sd) < miss_frac(*o)))
      gaps += std::string(" vs ") + other + ": sd misses " + std::to_string(miss_frac(*sd)) + ", cfs " +
              std::to_string(miss_frac(*o)) + ";";
  }
  if (!gaps.empty())
    GTEST_SKIP() << "seed 000, scenarios.md §1 'fewer missed frame deadlines than CFS' not reproduced" << gaps;
}

// Against mainline the model does not give SD fewer missed video deadlines (o1's interactivity
// bonus keeps one player on time in bursts): recorded with the numbers.
TEST(SeedDirections, Desktop2007_SdMissesFewerVideoDeadlinesThanMainline_NotReproduced) {
  const jvalue* sd = desktop("sd:rr_interval=2ms");
  const jvalue* o1 = desktop("o1");
  ASSERT_TRUE(sd && o1);
  const double s = missed(task_of(*sd, "totem")) + missed(task_of(*sd, "gmplayer"));
  const double o = missed(task_of(*o1, "totem")) + missed(task_of(*o1, "gmplayer"));
  if (s < o) SUCCEED();
  else
    GTEST_SKIP() << "seed 000, scenarios.md §1 'fewer missed frame deadlines than mainline': missed video frames sd "
                 << s << " vs o1 " << o << " (not reproduced; o1's frame intervals are far more variable)";
}

// scenarios.md §1: "audio deadlines met under all" ("Audio never skipped under any scheduler"):
// none late beyond the 200 ms buffer, and at least 975 of the 999 periods served (a period a
// late wakeup skips is not late, only not played twice; the fewest served: 981, nicksched).
// Every scheduler of the library; not ref-rr (the simulator's nice-blind 10 ms round robin,
// under which the audio threads do skip periods).
TEST(SeedDirections, Desktop2007_AudioMetUnderEveryPolicy) {
  REQUIRE_CFS2007();
  for (const char* p : {"cfs2007:granularity=5ms", "cfs2007:granularity=2ms", "cfs2007:granularity=0", "sd:rr_interval=2ms",
                        "sd", "o1", "cfs2007", "cfs", "eevdf", "bfs", "nicksched", "goodness24"}) {
    const jvalue* r = desktop(p);
    ASSERT_TRUE(r);
    for (const char* a : {"muine", "totem-audio"}) {
      const jvalue& t = task_of(*r, a);
      EXPECT_GE(met(t), 975) << "seed 000: " << a << " ran too few periods under " << p;
      EXPECT_EQ(missed(t), 0) << "seed 000, scenarios.md §1 'audio deadlines met under all': " << a << " under " << p;
    }
  }
}

// scenarios.md §1: "the knob sweeps (CFS granularity 0/2/5 ms ...) move switch rate ... in the
// reported directions" (seed: 0 -> 12000-12600, 2 ms -> 5600-7600, 5 ms -> 5200-5600 cs/s).
TEST(SeedDirections, Desktop2007_CfsGranularitySweepMovesSwitchRate) {
  REQUIRE_CFS2007();
  const jvalue* g0 = desktop("cfs2007:granularity=0");
  const jvalue* g2 = desktop("cfs2007:granularity=2ms");
  const jvalue* g5 = desktop("cfs2007:granularity=5ms");
  ASSERT_TRUE(g0 && g2 && g5);
  EXPECT_GT(cs_per_sec(*g0), 1.3 * cs_per_sec(*g2)) << "seed 000, scenarios.md §1 CFS granularity sweep: cs/s(0) > cs/s(2 ms)";
  EXPECT_GT(cs_per_sec(*g2), 1.05 * cs_per_sec(*g5)) << "seed 000, scenarios.md §1 CFS granularity sweep: cs/s(2 ms) > cs/s(5 ms)";
}

// scenarios.md §1: the sweep moves fps in the reported directions: totem was at its worst with
// granularity 0 (~0.5 fps against ~2-3 fps at 5 and 2 ms). The direction only: the model's
// totem keeps most of its frames (13.9 fps against 14.7 and 15.0).
TEST(SeedDirections, Desktop2007_CfsGranularityZeroSlowsTotem) {
  REQUIRE_CFS2007();
  const jvalue* g0 = desktop("cfs2007:granularity=0");
  ASSERT_TRUE(g0);
  for (const char* other : {"cfs2007:granularity=2ms", "cfs2007:granularity=5ms"}) {
    const jvalue* o = desktop(other);
    ASSERT_TRUE(o);
    EXPECT_LT(task_of(*g0, "totem")["fps"].number(), 0.98 * task_of(*o, "totem")["fps"].number())
        << "seed 000, scenarios.md §1 CFS granularity sweep moves fps: totem fps at granularity 0 vs " << other;
  }
}

// scenarios.md §1: "(... SD rr_interval) move switch rate": a smaller rr_interval switches more.
TEST(SeedDirections, Desktop2007_SdRrIntervalSweepMovesSwitchRate) {
  const jvalue* sd2 = desktop("sd:rr_interval=2ms");
  const jvalue* sd8 = desktop("sd");
  ASSERT_TRUE(sd2 && sd8);
  EXPECT_GT(cs_per_sec(*sd2), 1.2 * cs_per_sec(*sd8)) << "seed 000, scenarios.md §1 SD rr_interval sweep: cs/s(2 ms) > cs/s(8 ms)";
}

// Seed 000 table: SD kept the CPU saturated (vmstat id 0).
TEST(SeedDirections, Desktop2007_SdSaturatesTheCpu) {
  const jvalue* sd = desktop("sd:rr_interval=2ms");
  ASSERT_TRUE(sd);
  EXPECT_LT(idle_pct(*sd), 2.0) << "seed 000, scenarios.md §1 table: sd-0.46 idle % = 0";
}

// ------------------------------------------------------------------ seed 000: the cube rotating
// desktop-2007/rotating adds the fill-rate-bound GPU of the seed's follow-up mail ("when the cube
// is in between faces ... the idle cpu usage goes up, for both cfs, SD, and mainline ... perhaps
// my video card is fill rate limited"); same tasks, same for every policy (scenarios.hpp).
const jvalue* rotating(const std::string& policy) {
  return runs::get().find("desktop-2007", kDesktopPolicies, "desktop-2007/rotating", policy);
}
double device_busy_pct(const jvalue& r, const std::string& name) {
  for (const auto& d : r["devices"].arr)
    if (d["name"].str == name) return d["busy_pct"].number();
  ADD_FAILURE() << "no device " << name << " in " << r["scenario"].str << " / " << r["policy"].str;
  return -1;
}
const char* const kSchedulers[] = {"cfs2007:granularity=5ms", "cfs2007:granularity=2ms", "cfs2007:granularity=0",
                                   "sd:rr_interval=2ms", "sd", "o1", "cfs2007", "cfs", "eevdf", "bfs", "nicksched",
                                   "goodness24"};

// Seed 000 follow-up: idle goes up while the cube rotates, under every scheduler, because the
// GPU is the bottleneck (it is busy most of the run while the CPU waits on it).
TEST(SeedDirections, Desktop2007Rotating_FillRateBoundGpuIdlesTheCpuUnderEveryScheduler) {
  REQUIRE_CFS2007();
  for (const char* p : kSchedulers) {
    const jvalue* one = desktop(p);
    const jvalue* rot = rotating(p);
    ASSERT_TRUE(one && rot);
    EXPECT_GT(idle_pct(*rot), idle_pct(*one) + 0.5)
        << "seed 000 follow-up: 'the idle cpu usage goes up, for both cfs, SD, and mainline' under " << p;
    EXPECT_GT(device_busy_pct(*rot, "gpu"), 80.0) << "seed 000 follow-up: 'fill rate limited' (GPU busy %) under " << p;
    EXPECT_TRUE(one->operator[]("devices").arr.empty()) << "the one-face variant has no GPU model";
  }
}

// Seed 000: "a constant 75 fps on one cube side (fps forced limited). Drops to ~45-50 fps during
// animation/rotate/scale" — the one-face variant at its cap, the rotating one well below it
// (the model's 50.5-53.2 fps, a little above the seed's 45-50).
TEST(SeedDirections, Desktop2007Rotating_BerylDropsToTheSeedsRotatingRate) {
  REQUIRE_CFS2007();
  for (const char* p : {"cfs2007:granularity=5ms", "cfs2007:granularity=2ms", "cfs2007:granularity=0", "sd:rr_interval=2ms",
                        "sd", "o1"}) {
    const jvalue* one = desktop(p);
    const jvalue* rot = rotating(p);
    ASSERT_TRUE(one && rot);
    EXPECT_GT(task_of(*one, "beryl")["fps"].number(), 72.0) << "seed 000: beryl ~75 fps on one cube face under " << p;
    EXPECT_GT(task_of(*rot, "beryl")["fps"].number(), 42.0) << "seed 000: beryl ~45-50 fps while rotating under " << p;
    EXPECT_LT(task_of(*rot, "beryl")["fps"].number(), 56.0) << "seed 000: beryl ~45-50 fps while rotating under " << p;
  }
}

// Seed 000 follow-up: "cfs hovers around ~35% idle cpu, sd hovers around ~3-30%, usually ~15%"
// (and Ingo Molnar: SD "saturated the CPU fully, while under cfs-v6 there was 34% idle time").
// SD at rr_interval 2 ms against CFS at each of the seed's granularities, with a 10 % margin.
TEST(SeedDirections, Desktop2007Rotating_SdIdlesLessThanCfs) {
  REQUIRE_CFS2007();
  const jvalue* sd = rotating("sd:rr_interval=2ms");
  ASSERT_TRUE(sd);
  for (const char* other : {"cfs2007:granularity=5ms", "cfs2007:granularity=2ms", "cfs2007:granularity=0"}) {
    const jvalue* o = rotating(other);
    ASSERT_TRUE(o);
    EXPECT_LT(idle_pct(*sd), 0.9 * idle_pct(*o))
        << "seed 000 follow-up: SD idles less than CFS while the cube rotates: sd:rr_interval=2ms vs " << other;
  }
}

// ------------------------------------------------------------------ seed 001: kernbench-4cpu
const char* const kKernPolicies =
    "cfs2007:granularity=2ms,cfs2007:granularity=100ms,cfs2007:granularity=500ms,o1,sd";
const jvalue* kern(const std::string& policy) {
  return runs::get().find("kernbench-4cpu", kKernPolicies, "kernbench-4cpu", policy);
}

// scenarios.md §2: "a small CFS granularity lengthens the build by a few percent against mainline".
TEST(SeedDirections, Kernbench4cpu_SmallCfsGranularityIsSlowerThanMainline) {
  REQUIRE_CFS2007();
  const jvalue* small = kern("cfs2007:granularity=2ms");
  const jvalue* o1 = kern("o1");
  ASSERT_TRUE(small && o1);
  EXPECT_GE(makespan_s(*small), 1.02 * makespan_s(*o1))
      << "seed 001, scenarios.md §2 'a small CFS granularity lengthens the build by a few percent'";
  EXPECT_LE(makespan_s(*small), 1.10 * makespan_s(*o1)) << "seed 001, scenarios.md §2 'a few percent' (not more than 10 %)";
  EXPECT_GE(user_s(*small), 1.02 * user_s(*o1)) << "seed 001, scenarios.md §2 'tiny timeslices cost about 5 % user time'";
}

// scenarios.md §2: "a large one matches mainline".
TEST(SeedDirections, Kernbench4cpu_LargeCfsGranularityMatchesMainline) {
  REQUIRE_CFS2007();
  const jvalue* o1 = kern("o1");
  ASSERT_TRUE(o1);
  for (const char* p : {"cfs2007:granularity=100ms", "cfs2007:granularity=500ms"}) {
    const jvalue* r = kern(p);
    ASSERT_TRUE(r);
    EXPECT_LE(std::fabs(makespan_s(*r) - makespan_s(*o1)), 0.01 * makespan_s(*o1))
        << "seed 001, scenarios.md §2 'a large one matches mainline': " << p;
  }
}

// scenarios.md §2: "SD matches mainline within about 1 %".
TEST(SeedDirections, Kernbench4cpu_SdMatchesMainline) {
  const jvalue* sd = kern("sd");
  const jvalue* o1 = kern("o1");
  ASSERT_TRUE(sd && o1);
  EXPECT_LE(std::fabs(makespan_s(*sd) - makespan_s(*o1)), 0.01 * makespan_s(*o1))
      << "seed 001, scenarios.md §2 'SD matches mainline within about 1 %'";
}

// ------------------------------------------------------------------ seed 002: games-renice
const char* const kGamesPolicies = "cfs2007,sd,o1,cfs,eevdf,bfs,nicksched,goodness24";
// The game variant (games-renice/xniceN) and the compile & wave typing test (typing-xniceN).
const jvalue* games(int xnice, const std::string& policy, bool typing = false) {
  return runs::get().find("games-renice", kGamesPolicies,
                          std::string(typing ? "games-renice/typing-xnice" : "games-renice/xnice") + std::to_string(xnice),
                          policy);
}
double echo_ns(const jvalue& run, const char* stat) { return task_of(run, "typist")["response_ns"][stat].number(); }

// scenarios.md §3: "measure frame-time variance of a game loop and keystroke-to-echo latency
// through an X server, with X at nice 0 and -10, under a compile load, for each policy".
// Independent floor for every echo: the chain's own work, 0.8 ms (X's key batch 0.2 ms,
// xterm 0.3 ms, X's echo batch 0.3 ms; scenarios.hpp games_renice).
TEST(SeedDirections, GamesRenice_MeasuresFramesAndKeystrokesForEveryPolicy) {
  REQUIRE_CFS2007();
  for (bool typing : {false, true})
    for (int xn : {0, -10})
      for (const char* p : {"cfs2007", "sd", "o1", "cfs", "eevdf", "bfs", "nicksched", "goodness24"}) {
        const jvalue* r = games(xn, p, typing);
        ASSERT_TRUE(r);
        const std::string where = std::string(typing ? "typing" : "game") + ", X nice " + std::to_string(xn) + ", " + p;
        if (!typing) {
          EXPECT_GT(task_of(*r, "game")["frames"].number(), 50) << "seed 002, scenarios.md §3: game frames, " << where;
        }
        EXPECT_GT(task_of(*r, "typist")["response_ns"]["count"].number(), 50) << "seed 002: keystrokes echoed, " << where;
        EXPECT_GE(echo_ns(*r, "p50"), 0.8e6) << "seed 002: an echo costs at least the chain's 0.8 ms of work, " << where;
        EXPECT_GT(task_of(*r, "cc1")["cpu_ns"].number(), 0) << "seed 002, scenarios.md §3: compile load runs, " << where;
      }
}

// Seed 002: "[Doom 3 is] nicely consistent under SD regardless of X renicing"; "no overt penalty
// for varying nice".
TEST(SeedDirections, GamesRenice_SdConsistentWhateverXsNice) {
  const jvalue* a = games(0, "sd");
  const jvalue* b = games(-10, "sd");
  ASSERT_TRUE(a && b);
  const double fa = frame_sd_ms(task_of(*a, "game")), fb = frame_sd_ms(task_of(*b, "game"));
  EXPECT_LE(std::fabs(fb - fa), 0.15 * fa) << "seed 002, scenarios.md §3: SD frame-time sd, X nice 0 vs -10";
  const double fpsa = task_of(*a, "game")["fps"].number(), fpsb = task_of(*b, "game")["fps"].number();
  EXPECT_LE(std::fabs(fpsb - fpsa), 0.05 * fpsa) << "seed 002, scenarios.md §3: SD game fps, X nice 0 vs -10";
}

// Echo statistics of the typing test over kTypingSeeds seeds (the pointer's and the compile's
// jitter move a single run's p99 by a few ms).
constexpr int kTypingSeeds = 16;
mean_se typing_echo(const std::string& policy, int xn, const char* stat) {
  return over_runs(seeded_runs::get().find("games-renice", "cfs2007,sd,o1", kTypingSeeds,
                                           "games-renice/typing-xnice" + std::to_string(xn), policy),
                   [stat](const jvalue& r) { return echo_ns(r, stat) / 1e6; });
}

// Seed 002, the compile & wave test: "Under SD, which has less of a delay to window borders being
// redrawn, it gets even better with X at -10. Other than that there's no overt penalty for
// varying nice." SD's median echo is clearly lower with X at -10 (16 seeds: 1.20 +- 0.05 ms
// against 2.07 +- 0.83 ms, mean +- sd), and its p99 is not clearly higher.
TEST(SeedDirections, GamesRenice_SdTypingBetterWithXAtMinus10AndNoPenalty) {
  const mean_se p50_0 = typing_echo("sd", 0, "p50"), p50_10 = typing_echo("sd", -10, "p50");
  EXPECT_TRUE(clearly_below(p50_10, p50_0)) << "seed 002, scenarios.md §3: SD echo p50 (ms, " << kTypingSeeds
                                            << " seeds) X nice -10 " << show(p50_10) << " vs 0 " << show(p50_0);
  const mean_se p99_0 = typing_echo("sd", 0, "p99"), p99_10 = typing_echo("sd", -10, "p99");
  EXPECT_FALSE(clearly_below(p99_0, p99_10)) << "seed 002: SD echo p99 must not grow with X at -10: " << show(p99_10)
                                             << " vs " << show(p99_0);
}

// Seed 002: "Unreniced, CFS is better than mainline, but still has small lags in mouse movement
// during the compile & wave test", and seed 004: "2.6 mainline of the time needed X reniced to
// stay usable". In the typing test, mainline with X at nice 0 now and then leaves a keystroke
// unechoed for 80-155 ms (in 8 of 64 seeds): X's timeslice runs out while its dynamic priority
// is one short of interactive (119 against TASK_INTERACTIVE's 118 at nice 0), so it is expired
// and waits behind the compile jobs for the array switch. cfs2007 never does, and neither does
// mainline with X at -10 (its 2.6 timeslice, 600 ms, does not run out). Counted: seeds whose echo
// p99 exceeds 50 ms.
TEST(SeedDirections, GamesRenice_UnrenicedCfsBetterThanMainlineWhichNeedsXReniced) {
  REQUIRE_CFS2007();
  constexpr int seeds = 64;
  auto stalled_runs = [&](const std::string& policy, int xn) {
    int n = 0;
    for (const jvalue* r : seeded_runs::get().find("games-renice", "cfs2007,o1", seeds,
                                                   "games-renice/typing-xnice" + std::to_string(xn), policy))
      n += echo_ns(*r, "p99") > 50e6 ? 1 : 0;
    return n;
  };
  const int o1_0 = stalled_runs("o1", 0), o1_10 = stalled_runs("o1", -10), cfs_0 = stalled_runs("cfs2007", 0);
  EXPECT_GE(o1_0, 4) << "seed 002: o1 with X at nice 0 should stall an echo > 50 ms in some of " << seeds << " runs";
  EXPECT_EQ(cfs_0, 0) << "seed 002: unreniced cfs2007 stalls no echo (runs with one: " << cfs_0 << ")";
  EXPECT_EQ(o1_10, 0) << "seed 004: o1 with X reniced to -10 stalls no echo (runs with one: " << o1_10 << ")";
}

// Seed 002: "Doom 3 was EXTREMELY variable under CFS v9 at X -10": X at -10 makes the game's
// frame times more variable under CFS than at 0, and more than it does under SD. A single seed's
// ratio ranges 0.94-1.30, so the means over the typing test's 16 seeds are compared (the same
// compare run, which holds the game variant too): 5.53 -> 6.13 ms for cfs2007.
TEST(SeedDirections, GamesRenice_CfsMoreVariableWithXAtMinus10) {
  REQUIRE_CFS2007();
  auto frame_sd = [](const std::string& policy, int xn) {
    return over_runs(seeded_runs::get().find("games-renice", "cfs2007,sd,o1", kTypingSeeds,
                                             "games-renice/xnice" + std::to_string(xn), policy),
                     [](const jvalue& r) { return frame_sd_ms(task_of(r, "game")); });
  };
  const mean_se c0 = frame_sd("cfs2007", 0), c10 = frame_sd("cfs2007", -10);
  const mean_se s0 = frame_sd("sd", 0), s10 = frame_sd("sd", -10);
  ASSERT_GT(c0.mean, 0);
  ASSERT_GT(s0.mean, 0);
  const double cr = c10.mean / c0.mean, sr = s10.mean / s0.mean;
  EXPECT_GT(cr, 1.05) << "seed 002, scenarios.md §3: CFS frame-time sd (ms, " << kTypingSeeds << " seeds) grows with X at -10: "
                      << show(c0) << " -> " << show(c10);
  EXPECT_TRUE(clearly_below(c0, c10)) << "seed 002: CFS frame-time sd at X -10 " << show(c10) << " vs 0 " << show(c0);
  EXPECT_GT(cr, sr) << "seed 002, scenarios.md §3: renicing X costs CFS more frame stability than SD: sd " << show(s0)
                    << " -> " << show(s10);
}

// Seed 002: "text not appearing for 4-5 seconds ... under CFS with X at -10". Not reproduced:
// cfs2007 (2.6.23's CFS, not v9) echoes within a few ms. The test records the numbers and skips.
TEST(SeedDirections, GamesRenice_CfsTypingStallsWithXAtMinus10_NotReproduced) {
  REQUIRE_CFS2007();
  const mean_se m = typing_echo("cfs2007", -10, "p99");
  if (m.mean < 1000.0)
    GTEST_SKIP() << "seed 002's 4-5 s CFS v9 typing stalls are not reproduced by cfs2007: echo p99 with X at -10 "
                 << show(m) << " ms (docs/results.md, seed 002)";
  EXPECT_GE(m.mean, 1000.0);
}

// ------------------------------------------------------------------ interbench
// interbench.md §6, "Qualitative shape to reproduce" (the published rows are mainline O(1) and
// Kolivas' staircase, 2005-2006): Audio at nice 0 meets about 100 % everywhere; X under Burn
// gets only 8-21 % CPU on every scheduler (its ramp wants up to 100 %; the model's 5.4-7.3 %,
// below the published range, so only its ceiling is asserted); Gaming's % CPU tracks its fair
// share, 16-25 % against 4 burners and about 56-62 % against Video or X (the model's 56.9-62.7). Run on the matrix
// (`compare --scenario interbench/all`) for the fair and staircase-style policies; o1 is below.
const jvalue* interbench_run(const std::string& bench, const std::string& load, const std::string& policy) {
  return runs::get().find("interbench/all", "o1,sd,cfs2007,cfs,eevdf,bfs", "interbench/" + bench + "/" + load, policy);
}
double bench_field(const jvalue& run, const std::string& bench, const char* field) {
  return task_of(run, bench)["interbench"][field].number();
}

TEST(SeedDirections, Interbench_PublishedShape) {
  REQUIRE_CFS2007();
  for (const char* p : {"o1", "sd", "cfs2007", "cfs", "eevdf", "bfs"})
    for (const char* load : {"none", "video", "x", "burn", "write", "read", "compile", "memload"}) {
      const jvalue* a = interbench_run("audio", load, p);
      ASSERT_TRUE(a);
      EXPECT_GE(bench_field(*a, "audio", "deadlines_met_pct"), 98.0) << "interbench.md §6: Audio ~100 %, " << p << ", " << load;
    }
  for (const char* p : {"sd", "cfs2007", "cfs", "eevdf", "bfs"}) {
    const jvalue* x = interbench_run("x", "burn", p);
    const jvalue* gb = interbench_run("gaming", "burn", p);
    const jvalue* gv = interbench_run("gaming", "video", p);
    const jvalue* gx = interbench_run("gaming", "x", p);
    ASSERT_TRUE(x && gb && gv && gx);
    EXPECT_LE(bench_field(*x, "x", "desired_cpu_pct"), 21.0) << "interbench.md §6: X under Burn 8-21 % CPU, " << p;
    const double b = bench_field(*gb, "gaming", "desired_cpu_pct");
    EXPECT_TRUE(b >= 16 && b <= 25) << "interbench.md §6: Gaming against 4 burners 16-25 % CPU, " << p << ": " << b;
    for (const jvalue* g : {gv, gx}) {
      const double v = bench_field(*g, "gaming", "desired_cpu_pct");
      EXPECT_TRUE(v >= 55 && v <= 64) << "interbench.md §6: Gaming against Video or X about 56-62 % CPU, " << p << ": " << v;
    }
  }
  // X alone (interbench.md §2: "an otherwise idle GUI"): every deadline but the edge step 99,
  // which the 2 µs switch cost pushes past its deadline (published: 93-100 %).
  for (const char* p : {"o1", "sd", "cfs2007"}) {
    const jvalue* x = interbench_run("x", "none", p);
    ASSERT_TRUE(x);
    EXPECT_GE(bench_field(*x, "x", "deadlines_met_pct"), 99.0) << p;
    EXPECT_GE(bench_field(*x, "x", "desired_cpu_pct"), 99.9) << p;
  }
}

// interbench.md §6 row A, mainline Audio under Burn: 0.199 / 1.17 / 16 ms, 100 % of deadlines.
// The benchmarked thread has slept on its start semaphore for the load's 1 s head start, so o1
// rates it interactive from its first job; created afresh at 1 s instead, it waited for an
// array switch behind the burners (702 ms).
TEST(SeedDirections, Interbench_MainlineAudioUnderBurn_RowA) {
  const jvalue* a = interbench_run("audio", "burn", "o1");
  ASSERT_TRUE(a);
  EXPECT_GE(bench_field(*a, "audio", "deadlines_met_pct"), 100.0);
  EXPECT_LE(bench_field(*a, "audio", "max_ms"), 16.0) << "row A: mainline max 16 ms";
}

// interbench.md §6, mainline X under Burn: 20.5 % of its CPU, 11.8 % of deadlines (2.6.13-rc6).
// Not reproduced on the scenario's one full-speed CPU: the model's o1 keeps X interactive through
// the whole ramp (the run time it is charged is divided by its bonus), so X preempts the burners
// and gets nearly all it asks for. The published machine was slower than that (the next test).
TEST(SeedDirections, Interbench_MainlineXUnderBurn_NotReproduced) {
  const jvalue* x = interbench_run("x", "burn", "o1");
  ASSERT_TRUE(x);
  const double cpu = bench_field(*x, "x", "desired_cpu_pct");
  if (cpu > 25.0)
    GTEST_SKIP() << "interbench.md §6: mainline X/Burn ~20 % CPU; o1 here gets " << cpu
                 << " % on one full-speed CPU (about 35 % on row A's P4 HT, --smt 2: the next test)";
  EXPECT_LE(cpu, 25.0);
}

// Row A's machine was a Pentium 4 with Hyper-Threading (Michal Piotrowski in the thread:
// "I just have 1 pentium 4 with ht", <6bffcb0e050820211645c31a7@mail.gmail.com>), as was row B's
// (Con Kolivas' P4 HT). schedsim's SMT model (`--cpus 2 --smt 2`, the default 25 % gain: Kolivas
// put the P4's at 20-30 %, <410DB11C.9000903@kolivas.org>) runs a thread at its whole rate while
// its sibling idles and at 1.25 / 2 of it while both are busy; capacity 966 is the 94.3 % of its
// CPU that the same table's Gaming got alone (interbench's loops ran that much slower than
// calibrated there). On that machine X alone nearly keeps up (published 86.8 %), while under Burn
// a burner always runs on X's sibling and the top of X's ramp cannot finish in its interval,
// whoever runs: o1's X gets about a third of what it asks. So the machine, not a missing o1 rule,
// makes most of the published gap (the audit that found the HT box compared o1.hpp with 2.6.12's
// sched.c on X's path and found only second-order differences). The published 20.5 % itself is
// not reached (the skip above).
TEST(SeedDirections, Interbench_MainlineXUnderBurnOnRowAsHyperThreadedMachine) {
  auto x_of = [](const std::shared_ptr<jvalue>& doc) -> const jvalue& {
    const jvalue& run = doc->k == jvalue::kind::array ? doc->arr.at(0) : *doc;
    EXPECT_EQ(run["policy"].str, "o1");
    return task_of(run, "x")["interbench"];
  };
  const std::string ht = " --policies o1 --cpus 2 --smt 2 --capacity 966,966";
  const auto full = compare_json("--scenario interbench/x/burn --policies o1");
  const auto alone = compare_json("--scenario interbench/x/none" + ht);
  const auto burn = compare_json("--scenario interbench/x/burn" + ht);
  const jvalue& f = x_of(full);
  const jvalue& a = x_of(alone);
  const jvalue& b = x_of(burn);
  EXPECT_GE(f["desired_cpu_pct"].number(), 99.0) << "one full-speed CPU: o1 keeps X interactive (the skip above)";
  EXPECT_GE(a["desired_cpu_pct"].number(), 85.0) << "row A's HT box, X alone: published 86.8 %";
  EXPECT_LE(b["desired_cpu_pct"].number(), 40.0) << "row A's HT box, X under Burn: published 20.5 %";
  EXPECT_GE(b["desired_cpu_pct"].number(), 20.5) << "the model is not expected below the published figure";
  EXPECT_LE(b["deadlines_met_pct"].number(), 30.0) << "published 11.8 % of deadlines";
}

// interbench.md §6 row C (Con Kolivas, 2.6.14-ck4, a 3 GHz P4 uniprocessor, interbench -B 19):
// with the benchmarked task at nice 19 against Burn, mainline gave Audio 0.568 % of its desired
// CPU at 673 / 699 / 701 ms average / "SD" / max latency, and Video 0.174 % at 741 / 770 / 771 ms.
// The mechanism is o1's: a nice-19 task's best dynamic priority (134) never beats a nice-0
// burner's (125), so it runs only when every burner has expired, once per array switch (4 x
// 100 ms slices), and its 50 ms and 16.7 ms jobs are dropped in between.
TEST(SeedDirections, Interbench_Nice19BenchStarvedByMainline_RowC) {
  const jvalue* a = runs::get().find("interbench/audio/burn:B=19", "o1", "interbench/audio/burn:B=19", "o1");
  const jvalue* v = runs::get().find("interbench/video/burn:B=19", "o1", "interbench/video/burn:B=19", "o1");
  ASSERT_TRUE(a && v);
  EXPECT_LT(bench_field(*a, "audio", "desired_cpu_pct"), 2.0) << "row C: mainline nice-19 Audio 0.568 % CPU";
  EXPECT_LT(bench_field(*v, "video", "desired_cpu_pct"), 2.0) << "row C: mainline nice-19 Video 0.174 % CPU";
  // Latencies within 15 % of the published figures (they follow from the 4 x 100 ms array switch).
  const double aavg = bench_field(*a, "audio", "avg_ms"), amax = bench_field(*a, "audio", "max_ms");
  const double vavg = bench_field(*v, "video", "avg_ms"), vmax = bench_field(*v, "video", "max_ms");
  EXPECT_TRUE(aavg > 673 * 0.85 && aavg < 673 * 1.15) << "row C: Audio average 673 ms; o1 " << aavg;
  EXPECT_TRUE(amax > 701 * 0.85 && amax < 701 * 1.15) << "row C: Audio max 701 ms; o1 " << amax;
  EXPECT_TRUE(vavg > 741 * 0.85 && vavg < 741 * 1.15) << "row C: Video average 741 ms; o1 " << vavg;
  EXPECT_TRUE(vmax > 771 * 0.85 && vmax < 771 * 1.15) << "row C: Video max 771 ms; o1 " << vmax;
  // The same task at nice 0 is not starved: the nice level is what does it.
  const jvalue* a0 = interbench_run("audio", "burn", "o1");
  ASSERT_TRUE(a0);
  EXPECT_GE(bench_field(*a0, "audio", "desired_cpu_pct"), 98.0);
}

// interbench's start is a semaphore (interbench.c bench(): sem_wait on the thread's start
// semaphore, posted by the main process at 1 s): a benchmarked thread that first reaches its
// wait after the post goes straight through. Under cfs the nice-19 Audio behind four nice-0
// burners first runs at 1.63 s; while the start was a resume, that wakeup was lost and the
// thread slept for good (no Burn row at all).
TEST(SeedDirections, Interbench_ANice19BenchThatStartsLateStillRuns) {
  const jvalue* a = runs::get().find("interbench/audio/burn:B=19", "cfs", "interbench/audio/burn:B=19", "cfs");
  ASSERT_TRUE(a);
  EXPECT_GT(bench_field(*a, "audio", "desired_cpu_pct"), 1.0) << "weight 15 against 4 x 1024 still runs it";
}

// interbench.md §6, the same post as row C: "with loads at nice -5, mainline Audio vs X 63 %
// deadlines, staircase 100 %". Under o1 the nice -5 X load, interactive through most of its
// ramp, outranks the nice-0 Audio task (its dynamic priority is 5 better for the same bonus).
// SD gives nice -5 more slots per rotation (25 against 20) but the same best slot, and Audio,
// which uses little of its quota, wakes above an X that has been spending its own.
TEST(SeedDirections, Interbench_LoadAtNiceMinus5_MainlineAudioMissesDeadlines_SdMeetsAll) {
  const std::string pol = "o1,sd";
  const jvalue* o = runs::get().find("interbench/audio/x:N=-5", pol, "interbench/audio/x:N=-5", "o1");
  const jvalue* d = runs::get().find("interbench/audio/x:N=-5", pol, "interbench/audio/x:N=-5", "sd");
  ASSERT_TRUE(o && d);
  const double om = bench_field(*o, "audio", "deadlines_met_pct");
  EXPECT_TRUE(om > 50 && om < 80) << "row C's post: mainline Audio vs X at nice -5 meets 63 % of deadlines; o1 " << om;
  EXPECT_GE(bench_field(*d, "audio", "deadlines_met_pct"), 99.5) << "staircase: 100 %";
  // At load nice 0 mainline meets them all: the load's nice is what does it.
  const jvalue* o0 = interbench_run("audio", "x", "o1");
  ASSERT_TRUE(o0);
  EXPECT_GE(bench_field(*o0, "audio", "deadlines_met_pct"), 99.5);
}

// interbench -r: the benchmarked task runs SCHED_FIFO 95, above every policy's tasks, so Audio
// and Video meet every deadline within microseconds under every policy, even at nice 19 (which
// a SCHED_FIFO task ignores) and against Compile.
TEST(SeedDirections, Interbench_RealTimeBenchMeetsEveryDeadlineUnderEveryPolicy) {
  const std::string pol = "o1,sd,cfs2007,cfs,eevdf,bfs";
  for (const char* bench : {"audio", "video"})
    for (const char* load : {"burn", "compile"}) {
      const std::string name = std::string("interbench/") + bench + "/" + load + ":B=19,r";
      for (const char* p : {"o1", "sd", "cfs2007", "cfs", "eevdf", "bfs"}) {
        const jvalue* r = runs::get().find("interbench/all:B=19,r", pol, name, p);
        ASSERT_TRUE(r) << name << " " << p;
        EXPECT_GE(bench_field(*r, bench, "deadlines_met_pct"), 100.0) << name << " " << p;
        EXPECT_LT(bench_field(*r, bench, "max_ms"), 0.1) << name << " " << p;
      }
    }
}

// ------------------------------------------------------------------ massive_intr (not a seed)
// Satoru Takeuchi's massive_intr report (LKML, March 2007, in the program's header): N
// processes loop "work 8 msec and sleep 1 msec"; expected: nearly equal loop counts. 2.6.20 /
// 2.6.21-rc5: 1 CPU, 200 processes: "4 processes occupy 98% of CPU time"; 2 CPUs: 8 take 72 %
// (200 processes) and 98 % (400); nice 20 (19): "looks good"; RSDL "works fine in all cases".
// CFS's design document names massive_intr.c among the attacks CFS is not prone to.
const char* kMassivePolicies = "o1,sd,cfs2007,cfs,eevdf,bfs";
const jvalue* massive_run(const std::string& variant, const std::string& policy) {
  return runs::get().find("massive-intr", kMassivePolicies, "massive-intr/" + variant, policy);
}
// % of all task CPU taken by the k busiest tasks, and how many tasks ran at all.
double top_share(const jvalue& run, std::size_t k, std::size_t* ran = nullptr) {
  std::vector<double> cpu;
  double total = 0;
  for (const auto& t : run["tasks"].arr) {
    cpu.push_back(t["cpu_ns"].number());
    total += cpu.back();
  }
  std::sort(cpu.begin(), cpu.end(), std::greater<double>());
  if (ran) *ran = static_cast<std::size_t>(std::count_if(cpu.begin(), cpu.end(), [](double c) { return c > 0; }));
  double top = 0;
  for (std::size_t i = 0; i < k && i < cpu.size(); ++i) top += cpu[i];
  return total > 0 ? 100.0 * top / total : 0.0;
}

// The mechanism (o1's own rules): a few processes keep the maximum bonus (prio 115), because
// each wait on the run queue after a timer wakeup is credited as sleep, and each 8 ms run is
// charged at a tenth; they are reinserted into the active array at every expiry. The others
// wait, and EXPIRED_STARVING needs STARVATION_LIMIT x nr_running = 200 s, longer than the run.
TEST(SeedDirections, MassiveIntr_MainlineConcentratesTheCpuInAFewProcesses) {
  const jvalue* one = massive_run("1cpu-200", "o1");
  const jvalue* two = massive_run("2cpu-200", "o1");
  const jvalue* four = massive_run("2cpu-400", "o1");
  ASSERT_TRUE(one && two && four);
  std::size_t ran = 0;
  EXPECT_GE(top_share(*one, 4, &ran), 90.0) << "1 CPU, 200 processes: 4 take 98 %";
  EXPECT_LT(ran, 100u) << "most of the 200 never run";
  // The report's 72 %; the model concentrates more (94.7 %), so only the floor is asserted.
  EXPECT_GE(top_share(*two, 8), 60.0) << "2 CPUs, 200 processes: 8 take 72 %";
  EXPECT_GE(top_share(*four, 8), 90.0) << "2 CPUs, 400 processes: 8 take 98 %";
  EXPECT_LT((*one)["fairness"]["jain"].number(), 0.1);
  // The starvation limit is what bounds it: at 5 ms (x 200 processes = 1 s) the expired array
  // gets its turn and every process runs.
  const jvalue* bounded = runs::get().find("massive-intr/1cpu-200", "o1:starvation_limit=5ms", "massive-intr/1cpu-200",
                                           "o1:starvation_limit=5ms");
  ASSERT_TRUE(bounded);
  std::size_t all = 0;
  EXPECT_LT(top_share(*bounded, 4, &all), 10.0);
  EXPECT_EQ(all, 200u);
}

// "looks good" at nice 19 under mainline; RSDL/SD and CFS (and every other fair policy here)
// share evenly at nice 0: every process runs, and the 4 busiest take about their 4/200.
TEST(SeedDirections, MassiveIntr_Nice19AndTheFairPoliciesShareEvenly) {
  for (const char* v : {"1cpu-200-nice19", "2cpu-200-nice19", "2cpu-400-nice19"}) {
    const jvalue* r = runs::get().find("massive-intr", kMassivePolicies, std::string("massive-intr/") + v, "o1");
    ASSERT_TRUE(r);
    EXPECT_GE((*r)["fairness"]["jain"].number(), 0.99) << v;
  }
  for (const char* p : {"sd", "cfs2007", "cfs", "eevdf", "bfs"})
    for (const char* v : {"1cpu-200", "2cpu-200", "2cpu-400"}) {
      const jvalue* r = massive_run(v, p);
      ASSERT_TRUE(r);
      const std::size_t n = (*r)["tasks"].arr.size();
      std::size_t ran = 0;
      const double top4 = top_share(*r, 4, &ran);
      EXPECT_EQ(ran, n) << p << " " << v;
      EXPECT_LE(top4, 1.5 * 400.0 / static_cast<double>(n)) << p << " " << v;  // fair: 4/n of the CPU
      EXPECT_GE((*r)["fairness"]["jain"].number(), 0.99) << p << " " << v;
    }
}

// ------------------------------------------------------------------ seed 004: xterm-renice
// scenarios.md §4: "with Nick's scheduler the spread was about 5 % ... nearly insensible to renice".
// seed 004: xterm's lifetime (what `time xterm -e seq 1 5000` measures) and the pty's mean
// lines per read (jump scroll's batch) for `policy` at X nice `xn`.
struct xterm_run {
  double ms = -1, lines_per_read = 0;
};
xterm_run xterm_at(const std::string& policy, int xn) {
  xterm_run out;
  const jvalue* r = runs::get().find("xterm-renice", "nicksched,o1,goodness24", "xterm-renice/xnice" + std::to_string(xn),
                                     policy);
  if (r == nullptr) return out;
  const jvalue& xt = task_of(*r, "xterm");
  if (xt["exit_ns"].number() < 0) {
    ADD_FAILURE() << "seed 004: the pipeline did not finish under " << policy << ", X nice " << xn;
    return out;
  }
  out.ms = (xt["exit_ns"].number() - xt["start_ns"].number()) / 1e6;
  for (const auto& q : (*r)["pipes"].arr)
    if (q["name"].str == "pty") out.lines_per_read = q["mean_batch"].number();
  return out;
}

// "X is nearly insensible to renice ... the differences in time between renice -15 and renice
// +10 are about 5 %" (Nick's scheduler), and "as it was in 2.4". Asserted under 10 % (the
// model's spreads: 3.6 % nicksched, 7.0 % goodness24).
TEST(SeedDirections, XtermRenice_NickschedAnd24InsensitiveToXsNice) {
  for (const char* policy : {"nicksched", "goodness24"}) {
    double lo = 1e300, hi = 0;
    for (int xn : {0, -10, 10, -15}) {
      const double t = xterm_at(policy, xn).ms;
      ASSERT_GT(t, 0);
      lo = std::min(lo, t);
      hi = std::max(hi, t);
    }
    EXPECT_LE(hi, 1.10 * lo) << "seed 004, scenarios.md §4: " << policy
                             << " completion-time spread over X nice -15..+10 (Willy: 'about 5%'): " << lo << ".." << hi
                             << " ms";
  }
}

// "2.6 mainline of the time needed X reniced to stay usable": under o1 with X at nice 0 xterm,
// holding the sleep credit it inherited from an idle shell, preempts seq at every line, so jump
// scroll never finds more than a line or two and each line pays a whole scroll in X; renicing X
// changes that. In the model the renice that helps is *down*, to +10 (X then drains its socket
// late, xterm blocks on it, and seq fills the pty meanwhile); -10 and -15 leave it as at 0,
// which the next test records. Nick's scheduler keeps the batches whole.
TEST(SeedDirections, XtermRenice_MainlineScrollsLineByLineUnlessXIsReniced) {
  const xterm_run o1_0 = xterm_at("o1", 0), nick_0 = xterm_at("nicksched", 0);
  ASSERT_GT(o1_0.ms, 0);
  ASSERT_GT(nick_0.ms, 0);
  EXPECT_LT(o1_0.lines_per_read, 3.0) << "seed 004: mainline, X nice 0, lines per pty read";
  EXPECT_GT(nick_0.lines_per_read, 50.0) << "seed 004: nicksched, X nice 0, lines per pty read";
  EXPECT_GT(o1_0.ms, 2.0 * nick_0.ms) << "seed 004: mainline at X nice 0 against Nick's scheduler";
  const double o1_up = xterm_at("o1", 10).ms;
  ASSERT_GT(o1_up, 0);
  EXPECT_GT(o1_0.ms, 1.5 * o1_up) << "seed 004, scenarios.md §4: renicing X (to +10) shortens mainline's run";
  for (int xn : {-10, -15}) {
    const double t = xterm_at("o1", xn).ms;
    ASSERT_GT(t, 0);
    EXPECT_GT(t, 0.9 * o1_0.ms) << "the model's o1 with X at " << xn << " (docs/results.md, seed 004: only +10 helps)";
  }
}

// Nick asked his testers to renice X to -10, the usual 2.6 advice of the time. Not reproduced:
// in the model X at -10 is served at once, xterm never blocks on its socket, and mainline
// scrolls line by line as at nice 0. The test records the numbers and skips.
TEST(SeedDirections, XtermRenice_MainlineHelpedByXAtMinus10_NotReproduced) {
  const double at0 = xterm_at("o1", 0).ms, at_minus10 = xterm_at("o1", -10).ms;
  ASSERT_GT(at0, 0);
  ASSERT_GT(at_minus10, 0);
  if (at_minus10 >= 0.9 * at0)
    GTEST_SKIP() << "seed 004: renicing X to -10 does not help the model's mainline: " << at_minus10 << " ms against "
                 << at0 << " ms at nice 0 (docs/results.md, seed 004)";
  EXPECT_LT(at_minus10, 0.9 * at0);
}

// ------------------------------------------------------------------ eevdf-slices (Linux 6.12)
// The PREEMPT_SHORT commit (85e511df3cec, Mike Galbraith's perf sched latency table, three runs
// each, massive_intr at a 100 ms slice and cyclictest at 500 us): with the feature cyclictest's
// average delay falls from 0.448-0.475 ms to 0.370-0.374 ms and its summed delay from
// 288-302 s to 248-249 s; "the trade-off is that the massive_intr (long slice) gets more
// context switches [771-792 k -> 837-845 k] and a slight increase in sum-delay".
struct slices_group {
  double wait_ns = 0, wakeups = 0, switches = 0;
};
slices_group slices_sum(const jvalue& run, const std::string& group) {
  slices_group g;
  for (const auto& t : run["tasks"].arr) {
    if (t["group"].str != group) continue;
    g.wait_ns += t["wait_ns"].number();
    g.wakeups += t["latency_ns"]["count"].number();
    g.switches += t["switches"].number();
  }
  return g;
}
TEST(SeedDirections, EevdfSlices_PreemptShortServesTheShortSliceAtTheLongSlicesCost) {
  const std::string base = "eevdf:delay_dequeue=1,place_rel_deadline=1,preempt_short=";
  const std::string policies = base + "0," + base + "1";
  const jvalue* off = runs::get().find("eevdf-slices/custom", policies, "eevdf-slices/custom", base + "0");
  const jvalue* on = runs::get().find("eevdf-slices/custom", policies, "eevdf-slices/custom", base + "1");
  ASSERT_TRUE(off && on);
  const slices_group c0 = slices_sum(*off, "cyclictest"), c1 = slices_sum(*on, "cyclictest");
  const slices_group i0 = slices_sum(*off, "intr"), i1 = slices_sum(*on, "intr");
  ASSERT_GT(c0.wakeups, 10000.0);
  ASSERT_GT(c1.wakeups, 10000.0);
  EXPECT_LT(c1.wait_ns / c1.wakeups, 0.9 * c0.wait_ns / c0.wakeups) << "cyclictest's average delay (commit: -20 %)";
  EXPECT_LT(c1.wait_ns, 0.9 * c0.wait_ns) << "cyclictest's summed delay (commit: -17 %)";
  EXPECT_GT(i1.switches, i0.switches) << "massive_intr switches more (commit: +7 %)";
  EXPECT_GE(i1.wait_ns, i0.wait_ns) << "and waits slightly more (commit: +3 %)";
}

// Commit ac8e69e69363 (2026, "Fix wakeup_preempt_fair() vs delayed dequeue"): cyclictest
// beside hackbench at an 8 ms slice, average latency 64 -> 59 us, 99.9th percentile 2288 ->
// 727 us, because a delayed sleeper no longer wins the wakeup's pick and keeps a short-slice
// wakee from preempting. The same experiment with 6.17's rules, without and with the fix.
TEST(SeedDirections, EevdfSlices_TheWakeupPickFixLetsCyclictestPreemptSooner) {
  const std::string base =
      "eevdf:delay_dequeue=1,place_rel_deadline=1,preempt_short=1,repick_keeps_vprot=1,parity_min_slice=1";
  const std::string fixed = base + ",wakeup_dequeue_delayed=1";
  const jvalue* before = runs::get().find("eevdf-slices/custom", base + "," + fixed, "eevdf-slices/custom", base);
  const jvalue* after = runs::get().find("eevdf-slices/custom", base + "," + fixed, "eevdf-slices/custom", fixed);
  ASSERT_TRUE(before && after);
  const slices_group c0 = slices_sum(*before, "cyclictest"), c1 = slices_sum(*after, "cyclictest");
  ASSERT_GT(c0.wakeups, 10000.0);
  ASSERT_GT(c1.wakeups, 10000.0);
  EXPECT_LT(c1.wait_ns / c1.wakeups, 0.9 * c0.wait_ns / c0.wakeups) << "cyclictest's average delay (commit: -8 %)";
  double max0 = 0, max1 = 0;
  for (const auto& t : (*before)["tasks"].arr)
    if (t["group"].str == "cyclictest") max0 = std::max(max0, t["latency_ns"]["p99"].number());
  for (const auto& t : (*after)["tasks"].arr)
    if (t["group"].str == "cyclictest") max1 = std::max(max1, t["latency_ns"]["p99"].number());
  EXPECT_LE(max1, max0) << "and its worst thread's 99th percentile does not grow (commit: 99.9th -68 %)";
}

// --------------------------------------------------------------- eevdf-hackbench (2026 fixes)
// The experiment of commits ac8e69e69363 and 059258b0d424 (Vincent Guittot, Snapdragon RB5, 8
// CPUs): cyclictest -i 2777 beside hackbench -T -p -g 2. The second commit's table: with the
// default slices (2.8 ms) cyclictest's latency averaged 364 us (99th percentile 4192 us); with
// 8 ms for cyclictest and 20 ms for hackbench, 64 us (73 us); and with the commit, 61 us
// (99.9th percentile 2707 -> 1300 us, maximum 14273 -> 13525 us).
const char* const kHackbenchFix =
    "eevdf:base_slice=700us,cpus=8,repick_keeps_vprot=1,delay_dequeue=1,preempt_short=1,place_rel_deadline=1,"
    "parity_min_slice=1,yield_forfeit=1,wakeup_619=1,wakeup_dequeue_delayed=1";
double cyclictest_mean_latency_us(const jvalue& run) {
  const jvalue& t = task_of(run, "cyclictest");
  const double n = t["latency_ns"]["count"].number();
  return n > 0 ? t["wait_ns"].number() / n / 1e3 : 0;
}
TEST(SeedDirections, EevdfHackbench_CustomSlicesCutCyclictestLatencyBesideHackbench) {
  const jvalue* dflt = runs::get().find("eevdf-hackbench", kHackbenchFix, "eevdf-hackbench/default", kHackbenchFix);
  const jvalue* custom = runs::get().find("eevdf-hackbench", kHackbenchFix, "eevdf-hackbench/custom", kHackbenchFix);
  ASSERT_TRUE(dflt && custom);
  ASSERT_GT(task_of(*custom, "cyclictest")["latency_ns"]["count"].number(), 3000.0);
  const double d = cyclictest_mean_latency_us(*dflt), c = cyclictest_mean_latency_us(*custom);
  EXPECT_GT(d, 100.0) << "default slices: cyclictest waits behind hackbench (commit: 364 us on average)";
  EXPECT_LT(c, 0.2 * d) << "custom slices: " << c << " against " << d << " us (commit: 64 against 364 us)";
  EXPECT_LT(task_of(*custom, "cyclictest")["latency_ns"]["p99"].number(),
            0.2 * task_of(*dflt, "cyclictest")["latency_ns"]["p99"].number())
      << "and its 99th percentile (commit: 73 against 4192 us)";
}

// 059258b0d424 on the same runs with custom slices, over 8 seeds (hackbench's per-message
// costs vary): cyclictest's longest wait falls by two standard errors, the commit's headline
// (its tail). The average falls too, by two standard errors. The runs are 5 s instead of the
// scenario's 10 (16 of them were the release suite's longest test, 64-81 s): over these 8
// seeds the longest wait is 0.09 +- 0.09 against 3.72 +- 0.66 ms and the wait per wakeup
// 9.5 +- 0.7 against 15.4 +- 1.5 us, 5.5 and 3.6 standard errors apart (0.78 +- 0.28 against
// 3.08 +- 0.51 ms and 10.2 +- 1.1 against 16.1 +- 1.5 us before the pick finished a delayed
// former curr; 21.8 +- 1.1 against 23.8 +- 1.5 us, 10 s runs, before the requeue of a delayed
// sleeper stopped charging curr first).
TEST(SeedDirections, EevdfHackbench_71LagFloorShortensCyclictestsLongestWait) {
  const std::string floor = std::string(kHackbenchFix) + ",delayed_lag_floor=1";
  const std::string policies = std::string(kHackbenchFix) + "," + floor;
  constexpr int kSeeds = 8;
  const char* const kHalfRun = "--duration 5s";
  const auto before =
      seeded_runs::get().find("eevdf-hackbench/custom", policies, kSeeds, "eevdf-hackbench/custom", kHackbenchFix, kHalfRun);
  const auto after = seeded_runs::get().find("eevdf-hackbench/custom", policies, kSeeds, "eevdf-hackbench/custom", floor, kHalfRun);
  auto max_ms = [](const jvalue& r) { return task_of(r, "cyclictest")["latency_ns"]["max"].number() / 1e6; };
  const mean_se m0 = over_runs(before, max_ms), m1 = over_runs(after, max_ms);
  const mean_se a0 = over_runs(before, cyclictest_mean_latency_us), a1 = over_runs(after, cyclictest_mean_latency_us);
  EXPECT_TRUE(clearly_below(m1, m0)) << "longest wait " << m1.mean << " +- " << m1.se << " against " << m0.mean << " +- "
                                     << m0.se << " ms (commit: maximum -5 %, 99.9th percentile -52 %)";
  EXPECT_TRUE(clearly_below(a1, a0)) << "average " << a1.mean << " +- " << a1.se << " against " << a0.mean << " +- "
                                     << a0.se << " us (commit: -5 %)";
}

}  // namespace

namespace {
// ------------------------------------------------------------------ autogroup (not a seed)
// Linux 2.6.38's autogroup (Mike Galbraith, 2010: "parallel kbuild has a negative impact on
// desktop interactivity"): one task group per session. Oracle: cgroup v2's weight-based
// distribution (busy siblings split their parent's share by weight), so with three busy
// sessions of equal weight on one CPU the browser gets what it asks for (24 %, under its third)
// and the hog and the build split the rest evenly; in the root the hog is one of 12.
const char* kAutogroupPolicies = "cfs,eevdf,o1,sd,cfs2007,bfs";
const jvalue* autogroup_run(bool on, const std::string& policy) {
  return runs::get().find("autogroup", kAutogroupPolicies, on ? "autogroup/on" : "autogroup/off", policy);
}
const jvalue* autogroup_run_smp(bool on, const std::string& policy) {
  return runs::get().find("autogroup", kAutogroupPolicies, on ? "autogroup/4cpu-on" : "autogroup/4cpu-off", policy);
}
double cpu_pct(const jvalue& run, const std::string& task) {
  return 100.0 * task_of(run, task)["cpu_ns"].number() / run["duration_ns"].number();
}
double group_cpu_pct(const jvalue& run, const std::string& group) {
  double cpu = 0;
  for (const auto& t : run["tasks"].arr)
    if (t["group"].str == group) cpu += t["cpu_ns"].number();
  return 100.0 * cpu / run["duration_ns"].number();
}
double met_pct(const jvalue& t) {
  const double met = t["deadlines"]["met"].number(), missed = t["deadlines"]["missed"].number();
  return met + missed > 0 ? 100.0 * met / (met + missed) : 0.0;
}

TEST(SeedDirections, Autogroup_SessionsShareTheCpuBeforeTheirTasksDo) {
  for (const char* p : {"cfs", "eevdf"}) {
    const jvalue* off = autogroup_run(false, p);
    const jvalue* on = autogroup_run(true, p);
    ASSERT_TRUE(off && on);
    const double browser = cpu_pct(*on, "browser");
    EXPECT_NEAR(browser, 24.0, 1.5) << p << ": the browser gets its demand under its third";
    EXPECT_NEAR(cpu_pct(*on, "pert"), (100.0 - browser) / 2, 1.5) << p << ": hog and build split the rest";
    EXPECT_NEAR(group_cpu_pct(*on, "make"), (100.0 - browser) / 2, 1.5) << p;
    EXPECT_GE(met_pct(task_of(*on, "browser")), 95.0) << p << ": 60 fps scrolling, frames on time";
    // In the root: the hog is one of 12 tasks wanting more than a twelfth (the browser's 24 %
    // demand included); the browser's frames miss.
    EXPECT_NEAR(cpu_pct(*off, "pert"), 100.0 / 12, 1.0) << p;
    EXPECT_GT(cpu_pct(*on, "pert"), 4 * cpu_pct(*off, "pert")) << p;
    EXPECT_LT(met_pct(task_of(*off, "browser")), 50.0) << p;
    // Fairness is measured against the declared groups: the grouped schedule is fair by them.
    EXPECT_GE((*on)["fairness"]["jain"].number(), 0.99) << p;
    EXPECT_GE((*off)["fairness"]["jain"].number(), 0.99) << p;
  }
}

// Mike Galbraith's measurement: the hog's service latency (how long each preemption keeps it
// off the CPU) falls with autogroup, on average and at worst.
TEST(SeedDirections, Autogroup_TheHogWaitsLessPerPreemption) {
  for (const char* p : {"cfs", "eevdf"}) {
    const jvalue* off = autogroup_run(false, p);
    const jvalue* on = autogroup_run(true, p);
    ASSERT_TRUE(off && on);
    const jvalue& h0 = task_of(*off, "pert");
    const jvalue& h1 = task_of(*on, "pert");
    const double avg0 = h0["wait_ns"].number() / h0["switches"].number();
    const double avg1 = h1["wait_ns"].number() / h1["switches"].number();
    EXPECT_LT(avg1 * 2, avg0) << p << ": average wait " << avg1 / 1e6 << " ms against " << avg0 / 1e6;
    EXPECT_LT(h1["max_wait_ns"].number() * 2, h0["max_wait_ns"].number()) << p;
  }
}

// Linus' test, on 4 CPUs: a 60 fps browser during make -j64. In the root it is one of 65 tasks
// (about a sixteenth of a CPU for a 24 % demand); in its own session's group it weighs as much
// on its CPU as the whole build's share there (calc_group_shares gives the build a quarter of
// its weight per CPU), so its frames are on time.
TEST(SeedDirections, Autogroup_TheBrowserKeepsItsFramesDuringMakeJ64OnFourCpus) {
  for (const char* p : {"cfs", "eevdf"}) {
    const jvalue* off = autogroup_run_smp(false, p);
    const jvalue* on = autogroup_run_smp(true, p);
    ASSERT_TRUE(off && on);
    EXPECT_GE(met_pct(task_of(*on, "browser")), 95.0) << p;
    EXPECT_GE(task_of(*on, "browser")["fps"].number(), 59.0) << p;
    EXPECT_LT(met_pct(task_of(*off, "browser")), 10.0) << p;
    EXPECT_LT(task_of(*off, "browser")["fps"].number(), 30.0) << p;
    EXPECT_GT(group_cpu_pct(*on, "make"), 350.0) << p << ": the build keeps the rest of the 4 CPUs";
  }
}

// Policies without group scheduling run autogroup/on exactly as autogroup/off: the groups are
// the only difference between the variants.
TEST(SeedDirections, Autogroup_PoliciesWithoutGroupsIgnoreThem) {
  for (const char* p : {"o1", "sd", "cfs2007", "bfs"}) {
    const jvalue* off = autogroup_run(false, p);
    const jvalue* on = autogroup_run(true, p);
    ASSERT_TRUE(off && on);
    const jvalue* off4 = autogroup_run_smp(false, p);
    const jvalue* on4 = autogroup_run_smp(true, p);
    ASSERT_TRUE(off4 && on4);
    ASSERT_EQ((*off4)["tasks"].arr.size(), (*on4)["tasks"].arr.size());
    for (std::size_t i = 0; i < (*off4)["tasks"].arr.size(); ++i)
      EXPECT_EQ((*off4)["tasks"].arr[i]["cpu_ns"].number(), (*on4)["tasks"].arr[i]["cpu_ns"].number()) << p << " " << i;
    ASSERT_EQ((*off)["tasks"].arr.size(), (*on)["tasks"].arr.size());
    for (std::size_t i = 0; i < (*off)["tasks"].arr.size(); ++i) {
      EXPECT_EQ((*off)["tasks"].arr[i]["cpu_ns"].number(), (*on)["tasks"].arr[i]["cpu_ns"].number()) << p << " " << i;
      EXPECT_EQ((*off)["tasks"].arr[i]["switches"].number(), (*on)["tasks"].arr[i]["switches"].number()) << p << " " << i;
    }
    // ... and are judged against the groups all the same: the hog gets a fraction of its
    // entitled ~38 %, and the fairness index over the groups' entitlements drops.
    EXPECT_LT(cpu_pct(*on, "pert"), 15.0) << p;
    EXPECT_LT((*on)["fairness"]["jain"].number(), 0.95) << p;
  }
}
}  // namespace
