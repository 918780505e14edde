// schedsim: progress of long `compare`, `sweep`, `plot` and `report` runs on stderr.
//
// Shown only when stderr is a terminal (isatty(2)); silent otherwise, so pipes, files and CI
// logs never see it. One line, rewritten in place ("\r"), at most 10 times a second, and only
// once the run has lasted SCHEDSIM_PROGRESS_AFTER_MS milliseconds (default 500: short runs
// never flash a line); cleared when the run ends. SCHEDSIM_PROGRESS=0 turns it off on a
// terminal too. Thread-safe: worker threads of a parallel run call `step`.
#ifndef SCHEDSIM_PROGRESS_HPP
#define SCHEDSIM_PROGRESS_HPP

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

class schedsim_progress {
 public:
  /// A run of `total` simulations; `enabled` false (e.g. `run`) keeps it silent.
  explicit schedsim_progress(std::size_t total, bool enabled = true)
      : total_(total), start_(clock::now()), last_(start_) {
    const char* off = std::getenv("SCHEDSIM_PROGRESS");
    on_ = enabled && total > 1 && isatty(STDERR_FILENO) == 1 && !(off != nullptr && std::string(off) == "0");
    const char* after = std::getenv("SCHEDSIM_PROGRESS_AFTER_MS");
    if (after != nullptr) after_ms_ = std::atol(after);
  }
  schedsim_progress(const schedsim_progress&) = delete;
  schedsim_progress& operator=(const schedsim_progress&) = delete;
  ~schedsim_progress() { finish(); }

  /// One simulation finished; `what` names it ("cfs on desktop-2007").
  void step(const std::string& what) {
    if (!on_) return;
    std::lock_guard<std::mutex> lock(m_);
    ++done_;
    const auto now = clock::now();
    const long long el = std::chrono::duration_cast<std::chrono::milliseconds>(now - start_).count();
    const long long since = std::chrono::duration_cast<std::chrono::milliseconds>(now - last_).count();
    if (el < after_ms_ || (shown_ && since < 100 && done_ < total_)) return;
    last_ = now;
    shown_ = true;
    const double frac = static_cast<double>(done_) / static_cast<double>(total_);
    const long long eta = done_ > 0 ? static_cast<long long>(static_cast<double>(el) * (1 / frac - 1) / 1000) : 0;
    std::string w = what.size() > 40 ? what.substr(0, 37) + "..." : what;
    std::fprintf(stderr, "\r\033[Kschedsim: %zu/%zu runs (%3.0f%%), eta %llds  %s", done_, total_, 100 * frac, eta,
                 w.c_str());
    std::fflush(stderr);
  }

  /// Clears the line if anything was shown (idempotent).
  void finish() {
    std::lock_guard<std::mutex> lock(m_);
    if (!shown_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    shown_ = false;
    on_ = false;
  }

 private:
  using clock = std::chrono::steady_clock;
  std::mutex m_;
  std::size_t total_, done_ = 0;
  bool on_ = false, shown_ = false;
  long long after_ms_ = 500;
  clock::time_point start_, last_;
};

#endif
