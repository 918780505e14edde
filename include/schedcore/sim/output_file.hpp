/// @file
/// @brief Writing the simulator's output files (traces, reports, plots) without ever leaving a
/// half-written file, and without replacing what is not ours to replace (POSIX, hosted).
///
/// A regular file (or a new one) is written to a unique temporary file in the same directory
/// (`mkstemp`, so no file of the user's is overwritten) and renamed over the target: an error
/// leaves the old file, or none. A replaced file keeps its permission bits, as a shell's `>`
/// keeps them; a new one gets `fopen`'s. What a rename would destroy is written through instead:
/// - a symbolic link: its target is replaced (the link stays a link); a dangling link's target
///   is created, as a shell's `>` creates it; a loop of links is refused;
/// - a device, FIFO or socket (`--trace /dev/null`, a pipe to a viewer): written in place, as a
///   shell redirection would (nothing half-written can be kept from a device anyway); a FIFO
///   whose reader goes away is an error ("Broken pipe"), not a SIGPIPE that ends the process;
/// - a directory: refused.
/// `same_file` tells whether an output path names an input file, so that a command line that
/// would overwrite its own workload is refused before anything runs.
#ifndef SCHEDCORE_SIM_OUTPUT_FILE_HPP
#define SCHEDCORE_SIM_OUTPUT_FILE_HPP

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace schedcore {
namespace sim {

/// The process's umask, read once (umask() can only be read by setting it, so the first call
/// should come before any thread creates files: schedsim's run, compare and sweep read it at
/// start-up; plot and report, whose runs write no file, when they write theirs). New
/// output files get mode 0666 & ~umask, as `fopen` would give them.
inline mode_t output_umask() {
  static const mode_t mask = [] {
    const mode_t m = ::umask(022);
    ::umask(m);
    return m;
  }();
  return mask;
}

/// True when `a` and `b` both exist and are the same file (same device and inode, through any
/// symbolic links).
inline bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/// @cond INTERNAL
namespace detail_output {
inline bool write_all(int fd, const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}
// write_all to a FIFO, socket or device: a pipe whose reader has gone (a viewer closed, `head`
// done) fails the write with EPIPE, reported like any other error, instead of killing the whole
// process with SIGPIPE before it can say which output failed. SIGPIPE is blocked in this thread
// for the write and, if the write raised it and it was not pending before, taken back
// (sigtimedwait with a zero timeout) so that it is not delivered when the mask is restored.
inline bool write_all_without_sigpipe(int fd, const std::string& text) {
  sigset_t pipe_only, old_mask, pending;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  if (::pthread_sigmask(SIG_BLOCK, &pipe_only, &old_mask) != 0) return write_all(fd, text);
  const bool was_pending = ::sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
  const bool ok = write_all(fd, text);
  const int err = errno;
  if (!ok && err == EPIPE && !was_pending) {
    const timespec no_wait{0, 0};
    while (::sigtimedwait(&pipe_only, nullptr, &no_wait) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  errno = err;
  return ok;
}
inline bool fail(std::string* why, const std::string& what) {
  if (why != nullptr) *why = what;
  return false;
}
}  // namespace detail_output
/// @endcond

/// Writes `text` to `path` (see the file comment for what is replaced and what is written
/// through). Returns false with a reason in `why` (when given) on failure; a failed write to a
/// regular file leaves the old file, or none, and no temporary file.
inline bool write_output_file(const std::string& path, const std::string& text, std::string* why = nullptr) {
  using detail_output::fail;
  if (path.empty()) return fail(why, "empty file name");
  std::string target = path;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) != nullptr) {
      target = resolved;
    } else if (errno == ELOOP) {
      return fail(why, "a loop of symbolic links");
    } else {
      // A link to a file not there yet: the file it names is created, as a shell's `>` does
      // (a missing directory on the way fails below, naming it).
      const ssize_t n = ::readlink(path.c_str(), resolved, sizeof resolved - 1);
      if (n <= 0) return fail(why, std::string("an unreadable symbolic link: ") + std::strerror(errno));
      const std::string named(resolved, static_cast<std::size_t>(n));
      const std::size_t link_slash = path.rfind('/');
      target = named[0] == '/' || link_slash == std::string::npos ? named : path.substr(0, link_slash + 1) + named;
    }
  }
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return fail(why, "a directory");
  if (exists && !S_ISREG(st.st_mode)) {  // a device, FIFO or socket: write through
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return fail(why, std::strerror(errno));
    const bool ok = detail_output::write_all_without_sigpipe(fd, text);
    const int saved = errno;
    if (::close(fd) != 0 || !ok) return fail(why, std::strerror(ok ? errno : saved));
    return true;
  }
  const std::size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? std::string() : target.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  // The temporary name is the target's plus 8 bytes: a name near NAME_MAX (255 bytes on Linux)
  // is shortened in it, so that any name the directory can hold can be written.
  std::string tmp = dir + "." + base.substr(0, 200) + ".XXXXXX";
  const int fd = ::mkstemp(&tmp[0]);
  // The file is written beside its name and renamed over it: what fails is creating a file in
  // that directory (missing, read-only, or a pseudo-filesystem such as /proc).
  if (fd < 0) return fail(why, "cannot create a file in '" + (dir.empty() ? std::string(".") : dir) + "': " + std::strerror(errno));
  // mkstemp made it 0600. A file replaced keeps its permission bits (a private 0600 trace must
  // not turn world-readable because it was rewritten; set-id bits are not carried over); a new
  // one gets 0666 & ~umask.
  const mode_t mode = exists ? static_cast<mode_t>(st.st_mode & 0777) : static_cast<mode_t>(0666 & ~output_umask());
  bool ok = ::fchmod(fd, mode) == 0 && detail_output::write_all(fd, text);
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::rename(tmp.c_str(), target.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    return fail(why, std::strerror(err));
  }
  return true;
}

}  // namespace sim
}  // namespace schedcore

#endif
