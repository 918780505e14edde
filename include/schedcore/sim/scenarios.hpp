/// @file
/// @brief HOSTED. The built-in scenarios: the four seed reports (scenarios.md) and the
/// interbench matrix (interbench.md), each written as plain `workload` descriptions. No
/// scenario knows which policy runs it.
///
/// Families: a scenario name may stand for several workloads (variants), e.g.
/// `games-renice` = the game and the typing test, each with X at nice 0 and at nice -10.
/// `all` = the four seed families;
/// `interbench/all` = the whole interbench matrix; `massive-intr` = Takeuchi's massive_intr
/// (not a seed, but a report of the same 2007 argument) on 1 and 2 CPUs, nice 0 and 19.
#ifndef SCHEDCORE_SIM_SCENARIOS_HPP
#define SCHEDCORE_SIM_SCENARIOS_HPP

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "schedcore/core/time.hpp"
#include "schedcore/sim/workload.hpp"

namespace schedcore {
namespace sim {

/// One built-in workload.
struct scenario_def {
  std::string name;                  ///< `family` or `family/variant`
  std::string family;                ///< seed family (desktop-2007, ...) or `interbench`
  std::function<workload()> make;    ///< builds it
};

/// A family's default compare rows: policy specs in the seed's order (rows whose policy is not
/// registered, or whose knob the policy refuses, are skipped silently).
struct family_def {
  std::string name;                  ///< family name
  std::string what;                  ///< one line
  std::vector<std::string> rows;     ///< policy specs
};

/// @cond INTERNAL
namespace scen {
inline task_spec task(std::string name, int nice, std::vector<event> evs, bool daemon = true, std::string group = {}) {
  task_spec t;
  t.name = std::move(name);
  t.params.nice = static_cast<s8>(nice);
  t.daemon = daemon;
  t.group = std::move(group);
  phase p;
  p.name = "main";
  p.loop = -1;
  p.events = std::move(evs);
  t.phases.push_back(std::move(p));
  return t;
}
inline task_spec hog(std::string name, int nice, std::string group = "load") {
  return task(std::move(name), nice, {ev::run(sec(1))}, true, std::move(group));
}
}  // namespace scen
/// @endcond

/// desktop-2007 (seed 000): one 1.7 GHz Pentium M, HZ=1000, CPU-saturated (SD: idle 0).
/// What is modelled, with the rates the seed and its top(1) listings give:
/// - Xorg: single-threaded server. It sleeps on its request socket ("xreq"), and each time it
///   runs it serves *every* request queued since it last slept (a request made while X is
///   already runnable coalesces into that batch, as requests sitting in the socket buffer do),
///   then replies to every client waiting for a reply ("xdone"). 0.25 +- 0.08 ms of dispatch
///   and rendering (XShmPutImage copies into redirected windows) per batch (0.31 ms measured
///   with the cache refills).
/// - beryl: the compositor, 75 fps cap (vsync timer), ~0.5 ms of CPU a frame (Mesa's software
///   vertex path on the i855GM) in four chunks of GLX requests sent to X asynchronously, then
///   one X round trip (glXSwapBuffers).
/// - totem (gstreamer): a video thread decoding + scaling a full-screen DivX frame every 40 ms
///   (22 +- 5 ms: 1280x800 software scaling, no Xv under a compositor) and handing it to X
///   with XShmPutImage + XSync; its audio sink thread feeds ALSA every 10 ms.
/// - gmplayer: one thread: audio fill (1 ms) and video decode + scale (17 +- 4 ms) every 40 ms,
///   then a synchronous XShmPutImage.
/// - muine (mp3 via gstreamer alsasink defaults: latency-time 10 ms, buffer-time 200 ms):
///   0.25 ms of decoding every 10 ms; audio skips only if the 200 ms buffer runs dry, so that is
///   its frame deadline.
/// - mono (a GUI app, 5-15 % CPU in the listings), two terminals, and Firefox starting at 3 s
///   (~700 ms of CPU with I/O waits and X round trips: its exit time is its start-up time).
/// Demand is ~130 % of the CPU (measured: the same workload on 4 CPUs uses 13.2 s of CPU in
/// 10 s; the two players alone ask for 100 %), so the video players fall behind and drop frames (their
/// timers restart from `now`, as players skip late frames). Video frames have a 40 ms deadline,
/// beryl frames 13.3 ms. Leaves out: I/O, memory pressure, the many other X clients; absolute
/// cs/s are therefore lower than the seed's vmstat figures.
///
/// Two variants, because the seed reports two regimes: "when the desktop is sitting on only one
/// cube side ... the idle usage for cfs and SD goes down to nearly 0. But when the cube is in
/// between faces in free form mode ... the idle cpu usage goes up, for both cfs, SD, and
/// mainline ... perhaps my video card is fill rate limited".
/// - `desktop-2007` (`rotating` false): one cube face, beryl at its 75 fps cap. The GPU is not
///   the bottleneck and is left out.
/// - `desktop-2007/rotating`: the cube in free-form rotation, showing two faces, which is when
///   the seed's vmstat figures were taken. The i855GM is then fill-rate bound. It is modelled
///   as the FIFO device "gpu" (workload.hpp `device_submit`/`device_wait`):
///   - beryl submits each composited frame as 18 +- 3 ms of GPU work, and before drawing the
///     next one waits for the previous one to finish (the DRI driver's swap throttle). That
///     time is what makes beryl alone run at ~50 fps, the seed's "drops to ~45-50 fps during
///     animation/rotate".
///   - Xorg syncs the GPU after each batch and before replying (XAA's engine sync before CPU
///     access to pixmaps, which nearly every request of a composited desktop needs). So X's
///     clients wait on the GPU through X, and the CPU idles when every runnable task waits on
///     one or the other.
///   Nothing else changes between the variants, and both are the same for every policy.
inline workload desktop_2007(bool rotating = false) {
  using namespace scen;
  workload w;
  w.name = rotating ? "desktop-2007/rotating" : "desktop-2007";
  w.description =
      std::string(rotating ? "the cube rotating (fill-rate bound GPU: beryl's frames take 18 +- 3 ms of GPU time, X syncs "
                             "the GPU before replying), otherwise as desktop-2007: "
                           : "") +
      "1 CPU HZ=1000, ~130 % demand: Xorg (batches requests, replies to waiting clients), beryl (75 fps, 4 async X "
      "requests and 1 round trip a frame), totem (25 fps DivX decode+scale 22 ms, audio sink every 10 ms), gmplayer (25 fps, 18 ms), muine "
      "(mp3, 10 ms periods, 200 ms buffer), mono, two terminals; Firefox starts at 3 s (its exit time is its start-up time)";
  w.cpus = 1;
  w.hz = 1000;
  w.duration = sec(10);
  const auto xcall = [](std::vector<event>& v) {
    v.push_back(ev::on(event_kind::resume, "xreq"));
    v.push_back(ev::on(event_kind::suspend, "xdone"));
  };
  {
    std::vector<event> x = {ev::on(event_kind::suspend, "xreq"), ev::run(usec(250), usec(80))};
    if (rotating) x.push_back(ev::device_wait("gpu"));
    x.push_back(ev::on(event_kind::resume, "xdone"));
    w.tasks.push_back(task("Xorg", 0, x, true, "x"));
  }
  {
    // AIGLX: beryl's GL commands go to the X server as GLX requests, flushed in chunks (async),
    // then glXSwapBuffers waits for X (a round trip).
    std::vector<event> b = {ev::timer("beryl-vsync", 13333333)};
    if (rotating) b.push_back(ev::device_wait("gpu"));  // swap throttle: the previous frame is done
    for (int i = 0; i < 4; ++i) {
      b.push_back(ev::run(usec(120), usec(40)));
      b.push_back(ev::on(event_kind::resume, "xreq"));
    }
    if (rotating) b.push_back(ev::device_submit("gpu", msec(18), msec(3)));  // two faces at 1280x800
    xcall(b);
    b.push_back(ev::frame(13333333));
    w.tasks.push_back(task("beryl", 0, b, true, "video"));
  }
  {
    std::vector<event> v = {ev::timer("unique-totem", msec(40)), ev::run(msec(22), msec(5))};
    xcall(v);
    v.push_back(ev::frame(msec(40)));
    w.tasks.push_back(task("totem", 0, v, true, "video"));
    w.tasks.push_back(task("totem-audio", 0,
                           {ev::timer("unique-totem-audio", msec(10)), ev::run(usec(150), usec(50)), ev::frame(msec(200))},
                           true, "audio"));
  }
  {
    std::vector<event> v = {ev::timer("unique-gmplayer", msec(40)), ev::run(msec(1), usec(200)), ev::run(msec(17), msec(4))};
    xcall(v);
    v.push_back(ev::frame(msec(40)));
    w.tasks.push_back(task("gmplayer", 0, v, true, "video"));
  }
  w.tasks.push_back(task("muine", 0, {ev::timer("unique-muine", msec(10)), ev::run(usec(250), usec(50)), ev::frame(msec(200))},
                         true, "audio"));
  {
    std::vector<event> m = {ev::sleep(msec(30), msec(10)), ev::run(msec(3), msec(1))};
    xcall(m);
    w.tasks.push_back(task("mono", 0, m, true, "misc"));
  }
  {
    std::vector<event> t = {ev::sleep(msec(100), msec(30)), ev::run(usec(400), usec(100))};
    xcall(t);
    task_spec term = task("terminal", 0, t, true, "misc");
    term.instances = 2;
    w.tasks.push_back(term);
  }
  {
    std::vector<event> f = {ev::run(msec(12), msec(4)), ev::sleep(msec(2))};
    xcall(f);
    task_spec ff = task("firefox", 0, f, true, "firefox");
    ff.delay = sec(3);
    ff.loop = 1;
    ff.phases[0].loop = 60;  // ~720 ms of CPU with I/O waits and X round trips: its start-up
    w.tasks.push_back(ff);
  }
  w.notes.push_back("desktop-2007: 'firefox ms' is Firefox's start-up time (it starts at 3 s with ~720 ms of work)");
  return w;
}

/// kernbench-4cpu (seed 001): 4 CPUs, kernbench's "optimal" run `make -j16` (Nick Piggin's
/// runs show 389-393 % CPU of 400 %). 16 job slots; each slot compiles the same 25 files
/// (cc1 work 150..440 ms, a deterministic spread, mean ~290 ms: 2007 CPUs took ~0.3 s a file),
/// in a different rotation, each followed by 3 ms of make/fork/exec and I/O. Every slot has
/// exactly the same total work, so the build time differs between policies only through
/// scheduling: idle tails, context switches and cache refills. No jitter: the work is the same
/// under every policy. Non-daemon: makespan = the build time (`elapsed`). cc1 is cache-hungry
/// (GCC's working set fills a 2007 L2): a full refill costs it 200 us (~2 MB at ~10 GB/s;
/// twice the machine default `--refill`, which models a ~1 MB working set), charged as
/// refill x x / (x + `--refill-half`), x the other work that ran on its CPU since it last ran;
/// that is what makes tiny timeslices slower.
/// Leaves out: system time (31-32 s in the seed), I/O, the page cache, make's own dependency
/// graph (all files are independent).
inline workload kernbench_4cpu() {
  using namespace scen;
  workload w;
  w.name = "kernbench-4cpu";
  w.description =
      "4 CPUs: make -j16, 16 job slots x 25 compilations (150..440 ms of cc1 work each, same total per slot) with 3 ms "
      "make/exec/IO gaps";
  w.cpus = 4;
  w.hz = 1000;
  w.duration = sec(120);
  constexpr int files = 25;
  for (int slot = 0; slot < 16; ++slot) {
    std::vector<event> evs;
    for (int k = 0; k < files; ++k) {
      const int f = (k + slot * 3) % files;
      evs.push_back(ev::run(msec(150 + (f * 137) % 300)));
      evs.push_back(ev::sleep(msec(3)));
    }
    task_spec cc = task("cc1-" + std::to_string(slot), 0, evs, false, "build");
    cc.loop = 1;
    cc.phases[0].loop = 1;
    cc.refill_ns = usec(200);  // ~2 MB working set (the L2) refilled at ~10 GB/s after a full eviction
    w.tasks.push_back(cc);
  }
  return w;
}

/// games-renice (seed 002): one CPU, X at nice `xnice`, in the seed's two experiments.
/// - `typing` false (`games-renice/xniceN`): the games. A game loop (unlocked frame rate, each
///   frame 13 +- 0.5 ms of work plus a request to X) under a 2-job compile, with a typist.
///   The seed measured its games on an otherwise idle machine. Under no load every policy runs
///   the loop alike, so the compile is what lets the policies differ.
/// - `typing` true (`games-renice/typing-xniceN`): the seed's "compile & wave test": the
///   2-job compile, the typist, and the pointer waved around (a USB trackball polled at
///   200 Hz: one motion event every 5 ms), no game.
/// Shared by both:
/// - Xorg reads its socket (the pipe "xsock"), taking every request queued since it last read.
///   A batch costs 100 +- 33 us plus 100 us per item. A request is 1 item (a key press, a
///   pointer motion), 2 (xterm's echo: text and cursor) or 9 (a game frame's request, ~1 ms).
///   After each batch X replies to every client waiting on it ("xdone"), as in desktop-2007.
/// - A keystroke is one X round trip (X reads the key and dispatches it). Then xterm runs
///   (0.3 ms: process the key, draw the echo) and makes its own round trip (X draws the echo).
///   The typist's frame marks the echo on screen, so its response time (`response_ns`: from the
///   key's timer to the frame) is the keystroke-to-echo latency through X that scenarios.md
///   asks for. The typist itself stands in for X handing the key to xterm, which costs it no
///   CPU but one wakeup.
/// - The typist and the pointer are tasks standing in for input devices: each event costs one
///   wakeup of a task that has done no work, where a real device interrupt wakes X directly.
///   What they wake is woken from interrupt context (`task_spec::interrupt_context`), as a
///   device interrupt would wake it; that matters to o1, which credits such a wakeup's whole
///   run-queue wait as sleep (SLEEP_INTERRUPTED) and a task's wakeup at 30 %.
///   A reply ends every round trip waiting when X finishes a batch, so a request written while
///   X was preempted mid-batch is answered one batch early (at most ~1 ms, as in desktop-2007).
/// Leaves out: the window manager (sloppy focus's border redraws), the GPU, wine, audio.
inline workload games_renice(int xnice, bool typing = false) {
  using namespace scen;
  workload w;
  w.name = std::string(typing ? "games-renice/typing-xnice" : "games-renice/xnice") + std::to_string(xnice);
  w.description = std::string(typing ? "1 CPU: the compile & wave test: pointer motion at 200 Hz"
                                     : "1 CPU: game loop (13 ms/frame + a ~1 ms X request)") +
                  ", keystroke->X->xterm->X echo chain (echo latency = the typist's response time), 2 compile jobs; X "
                  "(100 us a batch + 100 us a request item) at nice " +
                  std::to_string(xnice);
  w.cpus = 1;
  w.hz = 1000;
  w.duration = sec(10);
  w.tasks.push_back(task("Xorg", xnice,
                         {ev::pipe_read("xsock", 0, usec(100), usec(100), usec(33)), ev::on(event_kind::resume, "xdone")},
                         true, "x"));
  if (typing) {
    task_spec pointer = task("pointer", 0, {ev::timer("unique-pointer", msec(5)), ev::pipe_write("xsock", 1)}, true, "input");
    pointer.interrupt_context = true;  // the trackball's interrupt wakes X
    w.tasks.push_back(pointer);
  } else {
    w.tasks.push_back(task("game", 0, {ev::run(msec(13), usec(500)), ev::pipe_write("xsock", 9), ev::frame(0)}, true,
                           "game"));
  }
  task_spec typist = task("typist", 0,
                          {ev::timer("unique-keys", msec(150)), ev::pipe_write("xsock", 1),
                           ev::on(event_kind::suspend, "xdone"), ev::on(event_kind::resume, "key"),
                           ev::on(event_kind::suspend, "echoed"), ev::frame(msec(100))},
                          true, "input");
  typist.interrupt_context = true;  // the keyboard's interrupt wakes X
  w.tasks.push_back(typist);
  w.tasks.push_back(task("xterm", 0,
                         {ev::on(event_kind::suspend, "key"), ev::run(usec(300)), ev::pipe_write("xsock", 2),
                          ev::on(event_kind::suspend, "xdone"), ev::on(event_kind::resume, "echoed")},
                         true, "input"));
  task_spec cc = task("cc1", 0, {ev::run(msec(30), msec(10)), ev::sleep(msec(3))}, true, "load");
  cc.instances = 2;
  w.tasks.push_back(cc);
  return w;
}

/// xterm-renice (seed 004): `time xterm -e seq 1 5000` on Willy Tarreau's desktop (one CPU,
/// HZ=1000), X at nice `xnice`. The metric is xterm's lifetime (what `time` measures).
/// The pipeline, as three tasks and two pipes (workload.hpp pipes):
/// - seq writes its 5000 lines one write(2) each (stdout on a tty is line-buffered), 8 us of
///   CPU a line (the write and the pty's line discipline), into the pty: 800 lines (a 4 KB
///   buffer of ~5-byte lines). It blocks only when the pty is full, and closes it at exit.
/// - xterm reads *everything* waiting in the pty (one read, 15 us) and parses it (35 us a
///   line), then sends X one request batch for all of it: jump scroll, xterm's default, scrolls
///   by the number of lines it found in one CopyArea instead of once per line. So the size of a
///   batch is however many lines seq wrote between xterm's reads: it depends on whether the
///   scheduler lets seq go on writing when its write wakes xterm. xterm exits at EOF.
/// - X serves one batch per read from its socket (1000 lines: a unix socket's buffer): 150 us
///   for the scroll (an unaccelerated CopyArea of the window) plus 12 us per line of text.
///   Per line that is 8 + 35 + 12 us whatever happens, plus 165 us of fixed costs per batch:
///   one line per batch takes about 1.1 s for 5000 lines, the whole pty per batch about 0.3 s
///   (the seed: 0.42-0.53 s with Nick's scheduler). The costs are estimates for a ~1 GHz
///   machine of 2004; the directions below hold from 4 to 16 us for seq, 20 to 35 us for
///   xterm's line, 60 to 300 us for the scroll and 200 to 800 lines of pty.
/// - History, as on a real desktop: X has been idle on its socket, and the login shell of
///   another terminal at its prompt, for 2 s when the shell forks xterm, which forks seq. Each
///   policy's own fork rule decides what the children inherit (2.6's sched_fork gives a child
///   part of its parent's sleep credit). Without that history every task starts as a fresh CPU
///   hog and no policy ever lets xterm preempt seq.
/// Background: the rest of an ordinary desktop (load average 0.6): a mail/clock client polling
/// every 100 ms (5 ms of work) and a periodic daemon (2 ms every 50 ms), ~9 % CPU together.
/// Leaves out: X's own request batching and event queue, xterm's select loop on the X socket,
/// the screen-height cap on one jump, the tty layer's flip buffer.
inline workload xterm_renice(int xnice) {
  using namespace scen;
  workload w;
  w.name = "xterm-renice/xnice" + std::to_string(xnice);
  w.description = "1 CPU: an idle shell forks xterm -e seq 1 5000 at 2 s: seq (8 us a line) -> pty (800 lines) -> xterm "
                  "(15 us a read + 35 us a line; jump scroll: one X request per read) -> socket -> X (150 us a scroll + "
                  "12 us a line) + light desktop background (~9 % CPU); X at nice " + std::to_string(xnice);
  w.cpus = 1;
  w.hz = 1000;
  w.duration = sec(30);
  w.pipes = {{"pty", 800}, {"xsock", 1000}};
  // The login shell of another terminal: idle at its prompt while the command is typed, then
  // runs `time xterm -e seq 1 5000` and waits for it.
  w.tasks.push_back(task("shell", 0, {ev::sleep(sec(2)), ev::on(event_kind::fork, "xterm"), ev::on(event_kind::suspend, "wait4")},
                         true, "shell"));
  task_spec xterm = task("xterm", 0, {ev::pipe_read("pty", 0, usec(15), usec(35)), ev::pipe_write("xsock", 0)}, false,
                         "pipeline");
  xterm.instances = 0;  // forked by the shell
  xterm.loop = 1;       // the read loop ends at EOF
  xterm.phases.insert(xterm.phases.begin(), phase{"exec", 1, {ev::on(event_kind::fork, "seq")}});
  w.tasks.push_back(xterm);
  task_spec seq = task("seq", 0, {ev::run(usec(8)), ev::pipe_write("pty", 1)}, false, "pipeline");
  seq.instances = 0;  // forked by xterm
  seq.loop = 1;
  seq.phases[0].loop = 5000;
  seq.phases.push_back(phase{"exit", 1, {ev::pipe_close("pty")}});  // EOF for xterm
  w.tasks.push_back(seq);
  w.tasks.push_back(task("Xorg", xnice, {ev::pipe_read("xsock", 1, usec(150), usec(12))}, true, "pipeline"));
  w.tasks.push_back(task("mailer", 0, {ev::sleep(msec(100)), ev::run(msec(5))}, true, "load"));
  w.tasks.push_back(task("daemon", 0, {ev::sleep(msec(50)), ev::run(msec(2))}, true, "load"));
  return w;
}

/// One option a scenario family accepts after its name's ':' (`interbench/audio/burn:B=19`):
/// a one-letter key with an integer value in [lo, hi], or a flag without a value.
struct scenario_option_spec {
  char key;         ///< the option's letter (`B` in `B=19`)
  /// @var long lo
  /// @brief The least value accepted (unused for a flag).
  long lo, hi;      ///< the value's range (unused for a flag)
  bool flag;        ///< true: the key alone, no '=' and no value
};

/// Parses comma-separated options against `specs`: each key at most once, integers written as an
/// optional '-' and 1-6 digits (no spaces, no '+': the names stay canonical). `values[i]` gets
/// spec i's value (1 for a flag that is present) and `given[i]` whether it appeared; both are
/// left unchanged on failure. `family` and `expected` word the errors ("interbench option 'Q=1':
/// expected B=NICE, ..."). Complexity O(length x options).
inline bool parse_scenario_options(const std::string& text, const char* family, const std::vector<scenario_option_spec>& specs,
                                   const char* expected, std::vector<long>& values, std::vector<bool>& given,
                                   std::string& error) {
  std::vector<long> v(specs.size(), 0);
  std::vector<bool> seen(specs.size(), false);
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? text.size() + 1 : comma + 1;
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    std::size_t at = specs.size();
    for (std::size_t i = 0; i < specs.size(); ++i)
      if (key.size() == 1 && key[0] == specs[i].key) at = i;
    if (at == specs.size()) {
      error = std::string(family) + " option '" + item + "': expected " + expected;
      return false;
    }
    if (seen[at]) {
      error = std::string(family) + " option '" + key + "' given twice";
      return false;
    }
    seen[at] = true;
    const scenario_option_spec& spec = specs[at];
    if (spec.flag) {
      if (eq != std::string::npos) {
        error = std::string(family) + " option '" + key + "' takes no value";
        return false;
      }
      v[at] = 1;
      continue;
    }
    const std::string value = eq == std::string::npos ? std::string() : item.substr(eq + 1);
    const std::size_t digits = value.size() - (value.size() > 0 && value[0] == '-' ? 1 : 0);
    const bool ok = digits >= 1 && digits <= 6 && value.find_first_not_of("0123456789", value.size() - digits) == std::string::npos;
    const long n = ok ? std::stol(value) : 0;  // cannot throw: at most 6 digits
    if (!ok || n < spec.lo || n > spec.hi) {
      error = std::string(family) + " option " + key + "='" + value + "': expected an integer in [" + std::to_string(spec.lo) +
              ", " + std::to_string(spec.hi) + "]";
      return false;
    }
    v[at] = n;
  }
  values = std::move(v);
  given = std::move(seen);
  return true;
}

/// interbench's command-line options that change the workload (interbench.md §5), written after
/// the scenario name as `interbench/<bench>/<load>:B=19,N=-5,L=2,r` (or `interbench/all:...`).
/// Defaults are interbench's.
struct interbench_options {
  int bench_nice = 0;  ///< `-B`: nice of the benchmarked task (-20..19)
  int load_nice = 0;   ///< `-N`: nice of the load's tasks (-20..19)
  int burners = 4;     ///< `-L`: spinning threads of Burn and Compile (1..64)
  bool rt = false;     ///< `-r`: the benchmarked task runs SCHED_FIFO 95; only Audio and Video are benchmarked
  /// `D=us` (the model's, not interbench's): the benchmarked thread starts this much after the
  /// 1 s head start (0..999999 us; the run still ends at 31 s). On a real machine process and
  /// thread start-up put it tens of us to a few ms late, and what ran around its creation
  /// decides whether it preempts a running load when posted: that sets its phase against a
  /// periodic load (Video's 16.7 ms period, X's 100 ms steps) for the whole run; the model's is
  /// exact. Replaying several delays shows how much a cell owes to that phase
  /// (tools/kernel_check.sh).
  int start_delay_us = 0;
  /// The canonical suffix, "" for the defaults, else ":" and the non-default options in the
  /// order B, N, L, r, D (what scenario names and tables show).
  std::string suffix() const {
    std::string o;
    auto add = [&o](const std::string& item) { o += (o.empty() ? ":" : ",") + item; };
    if (bench_nice != 0) add("B=" + std::to_string(bench_nice));
    if (load_nice != 0) add("N=" + std::to_string(load_nice));
    if (burners != 4) add("L=" + std::to_string(burners));
    if (rt) add("r");
    if (start_delay_us != 0) add("D=" + std::to_string(start_delay_us));
    return o;
  }
};

/// Parses the text after the ':' of an interbench scenario name: comma-separated `B=n`, `N=n`,
/// `L=n`, `r` and `D=n`, each at most once. False, with `error` saying what was expected, on anything
/// else; `out` is then unchanged.
inline bool parse_interbench_options(const std::string& text, interbench_options& out, std::string& error) {
  const std::vector<scenario_option_spec> specs = {
      {'B', -20, 19, false}, {'N', -20, 19, false}, {'L', 1, 64, false}, {'r', 0, 0, true}, {'D', 0, 999999, false}};
  std::vector<long> v;
  std::vector<bool> given;
  if (!parse_scenario_options(text, "interbench", specs, "B=NICE, N=NICE, L=THREADS, r or D=MICROSECONDS", v, given, error))
    return false;
  interbench_options o;
  o.bench_nice = static_cast<int>(v[0]);
  o.load_nice = static_cast<int>(v[1]);
  if (given[2]) o.burners = static_cast<int>(v[2]);
  o.rt = v[3] != 0;
  o.start_delay_us = static_cast<int>(v[4]);
  out = o;
  return true;
}

/// interbench: bench in {audio, video, x, gaming}, load in {none, video, x, burn, write, read,
/// compile, memload}; load from t = 0, the bench woken at t = 1 s, 30 s measured (interbench.md).
/// `opt` carries interbench's -B, -N, -L and -r (with `r`, bench must be audio or video).
inline workload interbench(const std::string& bench, const std::string& load, const interbench_options& opt = {}) {
  using namespace scen;
  workload w;
  w.name = "interbench/" + bench + "/" + load + opt.suffix();
  w.description = "interbench 0.31 model: " + bench + " benchmarked under " + load + " load";
  if (opt.suffix().size() > 1) w.description += " (options " + opt.suffix().substr(1) + ")";
  w.cpus = 1;
  w.hz = 1000;
  w.duration = sec(31);
  auto x_steps = [] {
    std::vector<event> steps;
    for (int i = 0; i <= 100; ++i) steps.push_back(ev::job(msec(i), msec(100 - i), msec(i)));
    return steps;
  };
  auto make = [&](const std::string& kind, const std::string& name, int nice, bool daemon) {
    if (kind == "audio") return task(name, nice, {ev::job(usec(2500), usec(50000))}, daemon, "bench");
    if (kind == "video") return task(name, nice, {ev::job(usec(6666), usec(16666))}, daemon, "bench");
    if (kind == "x") return task(name, nice, x_steps(), daemon, "bench");
    return task(name, nice, {ev::job(msec(100), 0)}, daemon, "bench");  // gaming
  };
  // interbench's process structure (interbench.c bench()): the benchmarked thread is created at
  // the start and waits on its start semaphore while the load runs alone; one second later the
  // main process (SCHED_FIFO 99 by then) wakes the bench process, which posts the semaphore. So
  // the thread begins its first job woken by another task after a 1 s sleep, which o1's sleep
  // credit sees, rather than as a task created at 1 s. A semaphore keeps the post: a thread that
  // reaches its wait after it (a nice 19 thread behind the load may first run after 1 s) goes
  // straight through, as with interbench's sem_wait, where a lost resume would leave it asleep.
  task_spec starter = task("interbench", 0, {ev::sleep(sec(1) + usec(opt.start_delay_us)), ev::on(event_kind::sem_post, "start"),
                                              ev::on(event_kind::suspend, "stop")}, true, "main");
  starter.params.kind = sched_kind::fifo;
  starter.params.rt_priority = 99;
  w.tasks.push_back(starter);
  task_spec b = make(bench, bench, opt.bench_nice, false);
  b.phases.insert(b.phases.begin(), phase{"wait-start", 1, {ev::on(event_kind::sem_wait, "start")}});
  if (opt.rt) {
    // interbench -r: the benchmarked thread is SCHED_FIFO 95 (its memory locked, which the
    // model does not need); the load stays SCHED_NORMAL.
    b.params.kind = sched_kind::fifo;
    b.params.rt_priority = 95;
  }
  w.tasks.push_back(b);
  if (load == "video" || load == "x") {
    task_spec l = make(load, load + "-load", opt.load_nice, true);
    l.group = "load";
    w.tasks.push_back(l);
  }
  auto io = [&](const std::string& name) {
    // A write or read of a RAM-sized file: short CPU bursts between disk waits, which are
    // uninterruptible (TASK_UNINTERRUPTIBLE), as the kernel's block I/O waits are.
    return task(name, opt.load_nice, {ev::run(usec(200), usec(50)), ev::io_sleep(msec(2))}, true, "load");
  };
  if (load == "burn" || load == "compile") {
    task_spec h = hog("burn", opt.load_nice);
    h.instances = opt.burners;
    w.tasks.push_back(h);
  }
  if (load == "write" || load == "compile") w.tasks.push_back(io("write"));
  if (load == "read" || load == "compile") w.tasks.push_back(io("read"));
  if (load == "memload") {
    task_spec m = task("memload", opt.load_nice, {ev::run(msec(1)), ev::io_sleep(msec(1))}, true, "load");  // page-ins: D state
    // A big working set: 1 ms to refill once fully evicted (10x the machine default); as for
    // any task, a return pays in proportion to what ran on the CPU meanwhile (--refill-half),
    // so after its 1 ms sleeps on an otherwise idle CPU it pays ~15 us, behind a busy one more.
    m.refill_ns = msec(1);
    w.tasks.push_back(m);
    w.notes.push_back("memload approximated: 1 ms bursts, a working set that takes 1 ms to refill once evicted, and 1 ms "
                      "paging sleeps (no swap model)");
  }
  // Every task loops forever; the run ends at 31 s (1 s of load alone, then 30 s measured).
  return w;
}

/// massive-intr: Satoru Takeuchi's massive_intr (LKML, March 2007, "massive interactive
/// processes"; the program's header carries the report). `nproc` processes each loop "work
/// 8 msec and sleep 1 msec" for 3 minutes; a fair scheduler gives them nearly equal loop counts
/// (CPU time). The report, on 2.6.20 and 2.6.21-rc5: one CPU, 200 processes at nice 0: "4
/// processes occupy 98% of CPU time"; two CPUs: 8 processes take 72 % (200 processes) and 98 %
/// (400); at nice 19 ("20": never rated interactive) "looks good"; RSDL "works fine in all
/// cases". CFS's design document lists massive_intr.c among the attacks on the stock
/// scheduler's heuristics that CFS is not prone to.
/// Model: the processes are forked at 0 and sleep 200 ms (massive_intr's usleep before it waits
/// for the start signal, which the parent has already sent), then loop; the 1 ms nanosleep is
/// a timer wakeup. Leaves out: the parent's calibration loop and fork-time sleep inheritance
/// (every process starts with no history). Named `massive-intr/<cpus>cpu-<nproc>[-nice<n>]`.
inline std::string massive_intr_name(int cpus, int nproc, int nice) {
  return "massive-intr/" + std::to_string(cpus) + "cpu-" + std::to_string(nproc) +
         (nice != 0 ? "-nice" + std::to_string(nice) : std::string());
}
/// @copydoc massive_intr_name()
inline workload massive_intr(int cpus, int nproc, int nice) {
  using namespace scen;
  workload w;
  w.name = massive_intr_name(cpus, nproc, nice);
  w.description = std::to_string(nproc) + " processes looping 'work 8 ms, sleep 1 ms' on " + std::to_string(cpus) +
                  " CPU" + (cpus == 1 ? "" : "s") + " at nice " + std::to_string(nice) +
                  " for 180 s after a 200 ms start-up sleep (Satoru Takeuchi's massive_intr, 2007)";
  w.cpus = cpus;
  w.hz = 1000;
  w.duration = sec(180) + msec(200);
  task_spec p = task("intr", nice, {ev::run(msec(8)), ev::sleep(msec(1))}, true, "intr");
  p.phases.insert(p.phases.begin(), phase{"start", 1, {ev::sleep(msec(200))}});
  p.instances = nproc;
  w.tasks.push_back(p);
  return w;
}

inline constexpr int eevdf_slices_default_stagger_us = 100;  ///< see eevdf_slices_options
inline constexpr int eevdf_slices_default_kthread_sleep_ms = 250;  ///< see eevdf_slices_options
/// eevdf-slices' options, written after the name as `eevdf-slices/none:J=23,S=100` (or
/// `eevdf-slices:J=23`, both variants):
/// - `J=us`, the CPU time of one cyclictest job, 1..1000 us (10 by default). The 10 us is the
///   scenario's own guess at a loop that reads a clock and sleeps; on a real machine the loop
///   also pays its system calls and the timer's wakeup path, which the kernel charges to the
///   thread. tools/kernel_check.sh measures the job on the running kernel (slices_native: CPU
///   time per time run) and replays the model at that cost.
/// - `S=us`, the stagger of the cyclictest threads' timer grids, 0..10000 us (`eevdf_slices_default_stagger_us`
///   by default): thread i's expiries are 50 ms + i x S + k x its period. cyclictest's threads each
///   start their absolute grid when they start, so how far apart they start decides how often
///   their expiries coincide, and that decides much of the result: on Linux 6.18 (slices_native
///   --stagger) and in the model alike, threads started together bunch their wakeups (one
///   preemption, the rest queued behind it), and threads started 25 us or more apart do not.
/// - `K=us` and `P=ms`: a kernel thread on CPU 0 that runs K us without preemption, then sleeps
///   P ms, over and over (K 0..100000, 0 = none, the default; P 1..10000, 250 by default; P
///   needs K). Each run's length is uniform in [0, 2K]. It stands in for the daemons of a real
///   machine under PREEMPT_NONE, where a wakeup cannot take the CPU from kernel code before its
///   next cond_resched(): on the Linux 6.18 VM this was written on, DAMON's kdamond.0 ran about
///   4 times a second, always on CPU 0, 1.23 ms a run on average (162 runs in four traces; SD
///   1.02 ms, up to 6.0 ms). tools/kernel_check.sh reads kdamond's runs from
///   /proc/PID/schedstat and passes them here.
struct eevdf_slices_options {
  int job_us = 10;                   ///< cyclictest's work per period, us
  int stagger_us = eevdf_slices_default_stagger_us;  ///< between successive cyclictest threads' grids, us
  int kthread_run_us = 0;            ///< the CPU-0 kernel thread's non-preemptible run, us (0: none)
  int kthread_sleep_ms = eevdf_slices_default_kthread_sleep_ms;  ///< its sleep between runs, ms
  /// "" for the defaults, else ":" and the others in the order J, S, K, P (what names and tables show).
  std::string suffix() const {
    std::string o;
    auto add = [&o](char key, int value) { o += (o.empty() ? ":" : ",") + std::string(1, key) + "=" + std::to_string(value); };
    if (job_us != 10) add('J', job_us);
    if (stagger_us != eevdf_slices_default_stagger_us) add('S', stagger_us);
    if (kthread_run_us != 0) add('K', kthread_run_us);
    if (kthread_sleep_ms != eevdf_slices_default_kthread_sleep_ms) add('P', kthread_sleep_ms);
    return o;
  }
};

/// Parses the text after the ':' of an eevdf-slices scenario name (`J=n`, `S=n`, `K=n`, `P=n`,
/// each at most once; P only with K). False, with `error` saying what was expected, on anything
/// else; `out` is then unchanged.
inline bool parse_eevdf_slices_options(const std::string& text, eevdf_slices_options& out, std::string& error) {
  std::vector<long> v;
  std::vector<bool> given;
  if (!parse_scenario_options(text, "eevdf-slices",
                              {{'J', 1, 1000, false}, {'S', 0, 10000, false}, {'K', 0, 100000, false}, {'P', 1, 10000, false}},
                              "J=MICROSECONDS, S=MICROSECONDS, K=MICROSECONDS or P=MILLISECONDS", v, given, error))
    return false;
  if (given[3] && (!given[2] || v[2] == 0)) {
    error = "eevdf-slices option P (the kernel thread's sleep) needs K (its run) above 0";
    return false;
  }
  eevdf_slices_options o;
  if (given[0]) o.job_us = static_cast<int>(v[0]);
  if (given[1]) o.stagger_us = static_cast<int>(v[1]);
  if (given[2]) o.kthread_run_us = static_cast<int>(v[2]);
  if (given[3]) o.kthread_sleep_ms = static_cast<int>(v[3]);
  out = o;
  return true;
}

/// eevdf-slices: the experiment of the PREEMPT_SHORT commit (85e511df3cec, "sched/eevdf: Allow
/// shorter slices to wakeup-preempt", Linux 6.12; numbers by Mike Galbraith): massive_intr
/// processes given a 100 ms slice and cyclictest threads given a 500 us slice through
/// sched_attr.sched_runtime, everything SCHED_OTHER. The commit's table (perf sched latency,
/// three runs each): with PREEMPT_SHORT cyclictest's average delay falls from 0.45-0.48 ms to
/// 0.37 ms and its summed delay by 17 %, while massive_intr switches 7 % more.
/// Model: 4 CPUs at HZ 1000; 5 massive_intr processes ("work 8 ms, sleep 1 ms", as
/// massive-intr above) and 5 cyclictest threads at cyclictest's default intervals (1 ms, then
/// +500 us per thread: `-d` 500) doing 10 us of work per period. cyclictest sleeps to absolute
/// times on a fixed grid (clock_nanosleep with TIMER_ABSTIME), so its timers are absolute and
/// anchored: thread i's grid starts at 50 ms + i x 100 us (option S), where an rt-app-style
/// relative timer would restart after every late job and let the threads' phases drift. Left out: the chromium
/// browser of the commit's runs and the machine's real CPU count (not stated). The policies
/// that predate 6.12 ignore the slices, as those kernels did. Neither program has a working set
/// to lose: massive_intr's work is a gettimeofday() loop and cyclictest's a clock read, so
/// their cache refill is 0 (`task_spec::refill_ns`), not the machine's 100 us, which models a
/// megabyte of compile-job data (kernbench) and made each 10 us cyclictest job cost up to ten
/// times that. The switch itself still costs the machine's `cs_cost_ns`.
/// Two variants: `eevdf-slices/custom`, the commit's, and `eevdf-slices/none`, the control: the
/// same tasks without custom slices (every task at the base slice), as on a kernel before 6.12
/// or with sched_runtime left at 0. `eevdf-slices` runs both. `opt` sets cyclictest's work (J),
/// the grid stagger (S) and the kernel thread (K, P): eevdf_slices_options.
inline workload eevdf_slices(bool custom = true, const eevdf_slices_options& opt = {}) {
  using namespace scen;
  workload w;
  w.name = std::string(custom ? "eevdf-slices/custom" : "eevdf-slices/none") + opt.suffix();
  w.description =
      std::string("4 CPUs HZ=1000: 5 massive_intr (work 8 ms, sleep 1 ms)") + (custom ? " with a 100 ms slice" : "") +
      " and 5 cyclictest threads (1-3 ms periods, " + std::to_string(opt.job_us) + " us each)" +
      (custom ? " with a 500 us slice (sched_runtime)" : ", every task at the base slice (no sched_runtime)") +
      ", all SCHED_OTHER, 30 s (the PREEMPT_SHORT commit's experiment)";
  w.cpus = 4;
  w.hz = 1000;
  w.duration = sec(30);
  task_spec intr = task("intr", 0, {ev::run(msec(8)), ev::sleep(msec(1))}, true, "intr");
  intr.params.runtime = custom ? msec(100) : 0;
  intr.refill_ns = 0;
  intr.instances = 5;
  w.tasks.push_back(intr);
  for (int i = 0; i < 5; ++i) {
    const duration_ns period = usec(1000 + 500 * i);
    task_spec c = task("cyclictest-" + std::to_string(period / 1000) + "us", 0,
                       {ev::anchored_timer("unique-cyclictest-" + std::to_string(i), period, msec(50) + usec(opt.stagger_us) * i),
                        ev::run(usec(opt.job_us))}, true, "cyclictest");
    c.params.runtime = custom ? usec(500) : 0;
    c.refill_ns = 0;
    w.tasks.push_back(c);
  }
  if (opt.kthread_run_us > 0) {  // option K: a daemon (not a foreground task): the run ends at 30 s
    // Each run uniform in [0, 2K]: kdamond's 162 runs in four traces averaged 1.23 ms with an SD
    // of 1.02 ms (0.03-6.0 ms); a fixed length would understate the long ones, whose cost to
    // the waiting cyclictest threads grows with their square.
    const duration_ns run = usec(opt.kthread_run_us);
    task_spec k = task("kthread", 0, {ev::run_nopreempt(run, run), ev::sleep(msec(opt.kthread_sleep_ms))}, true, "kthread");
    k.cpus = {0};
    k.refill_ns = 0;
    w.tasks.push_back(k);
    w.description += "; a kernel thread on CPU 0 runs " + std::to_string(opt.kthread_run_us) + " us unpreemptible every " +
                     std::to_string(opt.kthread_sleep_ms) + " ms";
  }
  return w;
}

/// eevdf-hackbench: the experiment of two 2026 EEVDF fixes, ac8e69e69363 ("Fix
/// wakeup_preempt_fair() vs delayed dequeue") and 059258b0d424 ("Prevent negative lag increase
/// during delayed dequeue"), both measured by Vincent Guittot on a Snapdragon RB5 (8 CPUs):
/// `hackbench -T -p -l 16000000 -g 2` in the background and `cyclictest -t 1 -i 2777
/// --policy=fair`, with custom slices of 8 ms for cyclictest and 20 ms for hackbench (variant
/// `custom`) or the default 2.8 ms for both (`default`).
/// Model: 8 CPUs at HZ 250. Two hackbench groups of 20 sender and 20 receiver threads; each
/// sender writes a 100-byte message to each receiver of its group in turn (1-2 us of CPU per
/// write, uniform), each receiver reads its pipe one message at a time (1-2 us per read); a pipe holds
/// 655 messages (64 KiB). cyclictest: one thread, absolute 2777 us grid, 10 us of work.
/// Left out: the RB5's big.LITTLE CPUs (all equal here) and hackbench's socket-free start-up.
inline workload eevdf_hackbench(bool custom) {
  using namespace scen;
  workload w;
  w.name = custom ? "eevdf-hackbench/custom" : "eevdf-hackbench/default";
  w.description = std::string("8 CPUs HZ=250: hackbench -T -p -g 2 (2 x 20 senders, 2 x 20 receivers, 100-byte pipe messages)") +
                  " and cyclictest -i 2777" + (custom ? ", slices 20 ms (hackbench) and 8 ms (cyclictest)" : ", default slices") +
                  ", all SCHED_OTHER, 10 s (the experiment of commits ac8e69e69363 and 059258b0d424)";
  w.cpus = 8;
  w.hz = 250;
  w.duration = sec(10);
  constexpr int groups = 2, fds = 20;
  for (int g = 0; g < groups; ++g) {
    const std::string gp = "g" + std::to_string(g) + "-r";
    std::vector<event> sends;
    for (int r = 0; r < fds; ++r) {
      sends.push_back(ev::run(usec(1) + 500, 500));
      sends.push_back(ev::pipe_write(gp + std::to_string(r), 1));
    }
    task_spec sender = task("hb" + std::to_string(g) + "-send", 0, sends, true, "hackbench");
    sender.instances = fds;
    sender.params.runtime = custom ? msec(20) : 0;
    sender.refill_ns = 0;
    w.tasks.push_back(sender);
    for (int r = 0; r < fds; ++r) {
      task_spec recv = task("hb" + std::to_string(g) + "-recv" + std::to_string(r), 0,
                            {ev::pipe_read(gp + std::to_string(r), 1, usec(1) + 500, 0, 500)}, true, "hackbench");
      recv.params.runtime = custom ? msec(20) : 0;
      recv.refill_ns = 0;
      w.tasks.push_back(recv);
      w.pipes.push_back({gp + std::to_string(r), 655});
    }
  }
  task_spec c = task("cyclictest", 0, {ev::anchored_timer("unique-cyclictest", usec(2777), msec(50)), ev::run(usec(10))}, true,
                     "cyclictest");
  c.params.runtime = custom ? msec(8) : 0;
  c.refill_ns = 0;
  w.tasks.push_back(c);
  return w;
}

/// interbench benchmarks and loads, in interbench's order.
inline const std::vector<std::string>& interbench_benches() {
  static const std::vector<std::string> v = {"audio", "video", "x", "gaming"};
  return v;
}
/// @copydoc interbench_benches()
inline const std::vector<std::string>& interbench_loads() {
  static const std::vector<std::string> v = {"none", "video", "x", "burn", "write", "read", "compile", "memload"};
  return v;
}

/// hogs-N: N pure CPU hogs (nice 0) on `cpus` CPUs for 10 s: the simulator's speed benchmark
/// (issue 6: >= 5 million events per host second for 1000 hogs under cfs) and a fairness check.
inline workload hogs(int n, int cpus = 1) {
  workload w;
  w.name = "hogs-" + std::to_string(n);
  w.description = std::to_string(n) + " CPU hogs, 10 s";
  w.cpus = cpus;
  w.duration = sec(10);
  task_spec h = scen::hog("hog", 0, "hog");
  h.instances = n;
  w.tasks.push_back(h);
  return w;
}

/// autogroup: the experiment behind Linux 2.6.38's autogroup ("sched: Add 'autogroup'
/// scheduling feature: automated per session task groups", Mike Galbraith, November 2010).
/// "A recurring complaint from CFS users is that parallel kbuild has a negative impact on
/// desktop interactivity": the idea, Linus Torvalds', is to put every session (setsid) in its
/// own task group, so a make -jN in one terminal competes as one entity, not N. Mike measured
/// it with a 100 % CPU hog that reports its service latency, pinned to the CPU of a make -j10;
/// Linus' own test was reading mail in a web browser and scrolling during a make -j64. Phoronix
/// summarised Mike's numbers as the maximum latency dropping more than tenfold and the average
/// about sixtyfold.
/// Model, one CPU at HZ 1000 for 20 s, three sessions:
/// - `make`: make -j10: 10 job slots compiling in turn (cc1 work 60..200 ms a file, a
///   deterministic spread, then 3 ms of make/exec/I/O), for the whole run;
/// - `pert`: the measurement hog (its CPU share, and its waits: how long each preemption kept
///   it off the CPU, average and longest);
/// - `desktop`: a browser scrolling at 60 frames/s, 4 +- 1 ms of work a frame (24 % of the
///   CPU), each frame due 16.7 ms after its release.
/// `autogroup/on` puts each session in its own cgroup (weight 100, as autogroup's default nice
/// 0); `autogroup/off` runs the same tasks in the root (sched_autogroup_enabled = 0).
/// `autogroup/4cpu-on` and `4cpu-off` are Linus' test on a 4-CPU machine: make -j64 and the
/// browser, two sessions, no hog (calc_group_shares divides the build's shares among the CPUs). cgroup
/// weights mean CPU shares split between sessions first: with three busy sessions each is
/// guaranteed a third, so the browser gets its 24 % and the hog and the build split the rest;
/// in the root, the hog is one of 12 tasks. Only cfs and eevdf have group scheduling
/// (policy/group.hpp); the other policies run both variants alike. Leaves out: X (the browser
/// draws itself), the build's memory and I/O pressure.
inline workload autogroup(bool on, bool smp = false) {
  using namespace scen;
  workload w;
  w.name = std::string("autogroup/") + (smp ? "4cpu-" : "") + (on ? "on" : "off");
  const int slots = smp ? 64 : 10;
  w.description = std::string(smp ? "4 CPUs HZ=1000: make -j64 (64 job slots" : "1 CPU HZ=1000: make -j10 (10 job slots") +
                  ", 60..200 ms cc1 runs), " + (smp ? "" : "a CPU hog measuring its waits, ") +
                  "a 60 fps browser (4 ms a frame); " +
                  (on ? "each session in its own task group (autogroup)" : "every task in the root group (no autogroup)");
  w.cpus = smp ? 4 : 1;
  w.hz = 1000;
  w.duration = sec(20);
  if (on) {
    for (const char* session : {"make", "pert", "desktop"})
      if (!smp || std::string(session) != "pert") w.cgroups.push_back({session, "", cgroup_weight_default});
  }
  constexpr int files = 25;
  for (int slot = 0; slot < slots; ++slot) {
    std::vector<event> evs;
    for (int k = 0; k < files; ++k) {
      const int f = (k + slot * 3) % files;
      evs.push_back(ev::run(msec(60 + (f * 59) % 141)));
      evs.push_back(ev::sleep(msec(3)));
    }
    task_spec cc = task("cc1-" + std::to_string(slot), 0, evs, true, "make");
    if (on) cc.cgroup = "make";
    w.tasks.push_back(cc);
  }
  if (!smp) {
    task_spec pert = hog("pert", 0, "pert");
    if (on) pert.cgroup = "pert";
    w.tasks.push_back(pert);
  }
  task_spec browser = task("browser", 0, {ev::timer("unique-frame", 16666667), ev::run(msec(4), msec(1)), ev::frame(16666667)},
                           true, "desktop");
  if (on) browser.cgroup = "desktop";
  w.tasks.push_back(browser);
  w.notes.push_back("autogroup: only cfs and eevdf schedule task groups; the other policies run autogroup/on as autogroup/off");
  return w;
}

/// Every built-in workload.
inline std::vector<scenario_def> builtin_scenarios() {
  std::vector<scenario_def> v;
  v.push_back({"desktop-2007", "desktop-2007", [] { return desktop_2007(); }});
  v.push_back({"desktop-2007/rotating", "desktop-2007", [] { return desktop_2007(true); }});
  v.push_back({"kernbench-4cpu", "kernbench-4cpu", [] { return kernbench_4cpu(); }});
  v.push_back({"autogroup/off", "autogroup", [] { return autogroup(false); }});
  v.push_back({"autogroup/on", "autogroup", [] { return autogroup(true); }});
  v.push_back({"autogroup/4cpu-off", "autogroup", [] { return autogroup(false, true); }});
  v.push_back({"autogroup/4cpu-on", "autogroup", [] { return autogroup(true, true); }});
  v.push_back({"hogs-1000", "hogs", [] { return hogs(1000); }});
  v.push_back({"eevdf-slices/custom", "eevdf-slices", [] { return eevdf_slices(); }});
  v.push_back({"eevdf-slices/none", "eevdf-slices", [] { return eevdf_slices(false); }});
  v.push_back({"eevdf-hackbench/custom", "eevdf-hackbench", [] { return eevdf_hackbench(true); }});
  v.push_back({"eevdf-hackbench/default", "eevdf-hackbench", [] { return eevdf_hackbench(false); }});
  for (int n : {0, -10}) v.push_back({"games-renice/xnice" + std::to_string(n), "games-renice", [n] { return games_renice(n); }});
  for (int n : {0, -10})
    v.push_back({"games-renice/typing-xnice" + std::to_string(n), "games-renice", [n] { return games_renice(n, true); }});
  for (int n : {0, -10, 10, -15})
    v.push_back({"xterm-renice/xnice" + std::to_string(n), "xterm-renice", [n] { return xterm_renice(n); }});
  for (int nice : {0, 19})
    for (const auto& cn : std::vector<std::pair<int, int>>{{1, 200}, {2, 200}, {2, 400}})
      v.push_back({massive_intr_name(cn.first, cn.second, nice), "massive-intr",
                   [cn, nice] { return massive_intr(cn.first, cn.second, nice); }});
  for (const auto& b : interbench_benches())
    for (const auto& l : interbench_loads())
      if (b != l) v.push_back({"interbench/" + b + "/" + l, "interbench", [b, l] { return interbench(b, l); }});
  return v;
}

/// A resolved `--scenario` argument: one workload and its family.
struct resolved_scenario {
  workload w;          ///< the workload to run
  std::string family;  ///< its family (what picks the compare rows and the table layout)
};

/// Resolves a `--scenario` argument: an exact name, a family (every variant), `all` (the four
/// seed families) or `interbench/all` (the matrix; `interbench` is the same). An interbench
/// name, `interbench` or `interbench/all` may carry options after a ':' (interbench_options);
/// with `r` the matrix keeps only the Audio and Video benchmarks, as interbench -r does. So may
/// `eevdf-slices` and its variants (eevdf_slices_options).
/// False with `error` set, and `out` unchanged, when nothing matches or the options are bad.
inline bool resolve_scenario(const std::string& arg, std::vector<resolved_scenario>& out, std::string& error) {
  const std::size_t colon = arg.find(':');
  const std::string base = arg.substr(0, colon);
  std::vector<resolved_scenario> found;
  const bool slices = base == "eevdf-slices" || base == "eevdf-slices/custom" || base == "eevdf-slices/none";
  if (colon != std::string::npos && slices) {
    eevdf_slices_options opt;
    if (!parse_eevdf_slices_options(arg.substr(colon + 1), opt, error)) {
      error = "scenario '" + arg + "': " + error;
      return false;
    }
    if (base != "eevdf-slices/none") found.push_back({eevdf_slices(true, opt), "eevdf-slices"});
    if (base != "eevdf-slices/custom") found.push_back({eevdf_slices(false, opt), "eevdf-slices"});
  } else if (colon != std::string::npos) {
    interbench_options opt;
    const bool matrix = base == "interbench" || base == "interbench/all";
    bool one = false;  // one registered interbench/<bench>/<load> pair
    for (const auto& d : builtin_scenarios()) one = one || (d.family == "interbench" && d.name == base);
    const std::size_t slash = base.rfind('/');  // well-formed when `one`: interbench/<bench>/<load>
    const std::size_t from = base.find('/') + 1;
    const std::string bench = one ? base.substr(from, slash - from) : "";
    const std::string load = one ? base.substr(slash + 1) : "";
    if (!matrix && !one) {
      error = "scenario '" + arg + "': options after ':' apply only to interbench and eevdf-slices scenarios "
              "(interbench/BENCH/LOAD:OPTIONS, interbench/all:OPTIONS, eevdf-slices[/VARIANT]:J=MICROSECONDS)";
      return false;
    }
    if (!parse_interbench_options(arg.substr(colon + 1), opt, error)) {
      error = "scenario '" + arg + "': " + error;
      return false;
    }
    if (one && opt.rt && bench != "audio" && bench != "video") {
      error = "scenario '" + arg + "': with r (interbench -r) only audio and video are benchmarked";
      return false;
    }
    for (const auto& b : interbench_benches())
      for (const auto& l : interbench_loads()) {
        if (b == l || (one && (b != bench || l != load)) || (opt.rt && b != "audio" && b != "video")) continue;
        found.push_back({interbench(b, l, opt), "interbench"});
      }
  } else {
    std::vector<std::string> families;
    if (arg == "all") families = {"desktop-2007", "kernbench-4cpu", "games-renice", "xterm-renice"};
    for (const auto& d : builtin_scenarios()) {
      const bool fam = d.family == arg || std::find(families.begin(), families.end(), d.family) != families.end() ||
                       (arg == "interbench/all" && d.family == "interbench");
      if (d.name == arg || fam) found.push_back({d.make(), d.family});
    }
    if (found.empty()) {
      error = "unknown scenario '" + arg + "' (see `schedsim list`)";
      return false;
    }
  }
  out = std::move(found);
  return true;
}

/// The seed families and their default compare rows.
inline std::vector<family_def> builtin_families() {
  const std::vector<std::string> common = {"o1", "sd", "cfs2007", "cfs", "eevdf", "bfs", "nicksched", "goodness24", "ref-rr"};
  auto with = [&](std::vector<std::string> first) {
    for (const auto& c : common)
      if (std::find(first.begin(), first.end(), c) == first.end()) first.push_back(c);
    return first;
  };
  return {
      {"desktop-2007", "seed 000: SD vs CFS vs mainline on a loaded desktop (cs/s, idle %, video fps, audio deadlines)",
       with({"cfs2007:granularity=5ms", "cfs2007:granularity=2ms", "cfs2007:granularity=0", "sd:rr_interval=2ms", "sd",
             "o1"})},
      {"kernbench-4cpu", "seed 001: make -j on 4 CPUs: build time against timeslice size",
       with({"cfs2007:granularity=2ms", "cfs2007:granularity=5ms", "cfs2007:granularity=100ms", "cfs2007:granularity=500ms", "o1", "sd"})},
      {"games-renice", "seed 002: game frame times under a compile, and the compile & wave typing test, with X at nice 0 and -10",
       with({"cfs2007", "sd", "o1"})},
      {"xterm-renice", "seed 004: xterm<->X pipeline completion against X's nice", with({"nicksched", "o1", "goodness24"})},
      {"interbench", "interbench 0.31 matrix: latency, % desired CPU, % deadlines met", with({"o1", "sd", "cfs"})},
      {"autogroup", "Linux 2.6.38's autogroup (2010): a 60 fps browser beside make -j10 and a CPU hog (1 CPU), and beside make -j64 (4 CPUs), without and with a task group per session",
       with({"cfs", "eevdf", "cfs2007", "o1", "sd"})},
      {"massive-intr", "Takeuchi's massive_intr (2007): N processes 'work 8 ms, sleep 1 ms'; fair = equal CPU",
       with({"o1", "sd", "cfs2007"})},
      {"eevdf-slices", "Linux 6.12+ per-task slices: cyclictest (500 us) against massive_intr (100 ms): 6.12 without and with PREEMPT_SHORT, 6.17+, 6.19+ (and 6.18.33+: 2026's wakeup fixes), and cfs (which ignores them)",
       {"eevdf:delay_dequeue=1,place_rel_deadline=1,preempt_short=0", "eevdf:delay_dequeue=1,place_rel_deadline=1,preempt_short=1",
        "eevdf:delay_dequeue=1,place_rel_deadline=1,preempt_short=1,repick_keeps_vprot=1,parity_min_slice=1",
        "eevdf:delay_dequeue=1,place_rel_deadline=1,preempt_short=1,repick_keeps_vprot=1,parity_min_slice=1,yield_forfeit=1,"
        "wakeup_619=1,wakeup_dequeue_delayed=1",
        "cfs"}},
      {"eevdf-hackbench", "2026's delayed-dequeue fixes on their own experiment: cyclictest (8 ms slice) beside hackbench (20 ms): the 6.19 rules, with the wakeup-pick fix (ac8e69e69363), with 7.1's lag floor (059258b0d424)",
       {"eevdf:base_slice=700us,cpus=8,repick_keeps_vprot=1,delay_dequeue=1,preempt_short=1,place_rel_deadline=1,parity_min_slice=1,"
        "yield_forfeit=1,wakeup_619=1",
        "eevdf:base_slice=700us,cpus=8,repick_keeps_vprot=1,delay_dequeue=1,preempt_short=1,place_rel_deadline=1,parity_min_slice=1,"
        "yield_forfeit=1,wakeup_619=1,wakeup_dequeue_delayed=1",
        "eevdf:base_slice=700us,cpus=8,repick_keeps_vprot=1,delay_dequeue=1,preempt_short=1,place_rel_deadline=1,parity_min_slice=1,"
        "yield_forfeit=1,wakeup_619=1,wakeup_dequeue_delayed=1,delayed_lag_floor=1"}},
  };
}

}  // namespace sim
}  // namespace schedcore

#endif
