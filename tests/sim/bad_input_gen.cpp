// Writes the generated cases of the schedsim bad-input suite (too large to commit) into the
// directory given as argv[1]/gen: a file with 10^6 tasks, one with 2 x 10^5 tasks (past the
// thread limit but under the reader's value limit), 10^5 nested arrays, a NUL byte, and a file
// one line past the reader's 64 MiB limit (lines of 99 spaces: the limit's byte 2^26 is at line
// 671089, column 65).
// Deterministic output; each task is on its own line so positions in messages are stable.
#include <cstdio>
#include <string>

namespace {

bool write_tasks(const std::string& path, long n) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  std::fputs("{\n\"tasks\" : {\n", f);
  for (long i = 0; i < n; ++i) std::fprintf(f, "\"t%ld\" : { \"run\" : 1000, \"sleep\" : 1000 },\n", i);
  std::fputs("},\n\"global\" : { \"duration\" : 1 }\n}\n", f);
  return std::fclose(f) == 0;
}

bool write_text(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR (writes OUTDIR/gen/*.json)\n", argv[0]);
    return 2;
  }
  const std::string dir = std::string(argv[1]) + "/gen/";
  bool ok = write_tasks(dir + "million-tasks.json", 1000000);
  ok = ok && write_tasks(dir + "200k-tasks.json", 200000);
  ok = ok && write_text(dir + "deep-nesting.json", "{ \"tasks\" : " + std::string(100000, '[') + "\n");
  static const char nul[] = "{ \"tasks\" : { \"t\" : { \"run\" : 1\0 } } }\n";
  ok = ok && write_text(dir + "nul-byte.json", std::string(nul, sizeof nul - 1));
  std::string line(99, ' ');
  line += '\n';
  std::string big;
  big.reserve((std::size_t{1} << 26) + 200);
  while (big.size() <= (std::size_t{1} << 26)) big += line;
  ok = ok && write_text(dir + "too-large.json", big);
  if (!ok) {
    std::fprintf(stderr, "%s: cannot write into %s (does it exist?)\n", argv[0], dir.c_str());
    return 1;
  }
  return 0;
}
