// png_check: is a screenshot blank? Decodes a non-interlaced 8-bit PNG (grey, RGB, grey+alpha
// or RGBA: what Chromium writes) with zlib, undoes the scanline filters and counts colours.
//
// usage: png_check FILE.png [MIN_COLOURS [MAX_DOMINANT_PERCENT]]   (defaults 16 and 97)
// Passes (exit 0) when the image is at least 200x200, has at least MIN_COLOURS distinct pixel
// values and its most frequent colour covers at most MAX_DOMINANT_PERCENT of the pixels: a blank
// page is one colour (or a background and a card: 2-3), a rendered report has text, tables and
// plots in dozens of colours. Prints the statistics either way; exit 1 when blank or unreadable.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

int paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

int fail(const std::string& why) {
  std::cerr << "png_check: " << why << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return fail("usage: png_check FILE.png [MIN_COLOURS [MAX_DOMINANT_PERCENT]]");
  const std::size_t min_colours = argc > 2 ? static_cast<std::size_t>(std::atol(argv[2])) : 16;
  const double max_dominant = argc > 3 ? std::atof(argv[3]) : 97.0;
  std::ifstream f(argv[1], std::ios::binary);
  if (!f) return fail(std::string("cannot open ") + argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string data = ss.str();
  const auto* d = reinterpret_cast<const unsigned char*>(data.data());
  static const unsigned char sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  if (data.size() < 33 || std::string(data, 0, 8) != std::string(reinterpret_cast<const char*>(sig), 8))
    return fail("not a PNG");
  std::uint32_t w = 0, h = 0;
  int depth = 0, ctype = 0, interlace = 0;
  std::string idat;
  std::size_t pos = 8;
  while (pos + 12 <= data.size()) {
    const std::uint32_t len = be32(d + pos);
    const std::string type(data, pos + 4, 4);
    if (pos + 12 + len > data.size()) return fail("truncated chunk " + type);
    const unsigned char* body = d + pos + 8;
    if (type == "IHDR") {
      w = be32(body);
      h = be32(body + 4);
      depth = body[8];
      ctype = body[9];
      interlace = body[12];
    } else if (type == "IDAT") {
      idat.append(reinterpret_cast<const char*>(body), len);
    } else if (type == "IEND") {
      break;
    }
    pos += 12 + len;
  }
  if (w < 200 || h < 200) return fail("image too small: " + std::to_string(w) + "x" + std::to_string(h));
  if (depth != 8 || interlace != 0) return fail("only 8-bit non-interlaced PNGs are supported");
  const int channels = ctype == 0 ? 1 : ctype == 2 ? 3 : ctype == 4 ? 2 : ctype == 6 ? 4 : 0;
  if (channels == 0) return fail("unsupported colour type " + std::to_string(ctype));
  const std::size_t stride = static_cast<std::size_t>(w) * static_cast<std::size_t>(channels);
  std::vector<unsigned char> raw((stride + 1) * h);
  uLongf out_len = static_cast<uLongf>(raw.size());
  if (uncompress(raw.data(), &out_len, reinterpret_cast<const Bytef*>(idat.data()), static_cast<uLong>(idat.size())) != Z_OK ||
      out_len != raw.size())
    return fail("IDAT does not inflate to " + std::to_string(raw.size()) + " bytes");
  std::vector<unsigned char> prev(stride, 0), cur(stride);
  std::map<std::uint32_t, std::uint64_t> counts;
  const int bpp = channels;
  for (std::uint32_t y = 0; y < h; ++y) {
    const unsigned char* line = raw.data() + static_cast<std::size_t>(y) * (stride + 1);
    const int filter = line[0];
    for (std::size_t x = 0; x < stride; ++x) {
      const int a = x >= static_cast<std::size_t>(bpp) ? cur[x - static_cast<std::size_t>(bpp)] : 0;
      const int b = prev[x];
      const int c = x >= static_cast<std::size_t>(bpp) ? prev[x - static_cast<std::size_t>(bpp)] : 0;
      int v = line[x + 1];
      switch (filter) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) / 2; break;
        case 4: v += paeth(a, b, c); break;
        default: return fail("bad filter type " + std::to_string(filter) + " on row " + std::to_string(y));
      }
      cur[x] = static_cast<unsigned char>(v & 0xff);
    }
    for (std::size_t x = 0; x < stride; x += static_cast<std::size_t>(channels)) {
      std::uint32_t px = 0;
      for (int k = 0; k < channels; ++k) px = (px << 8) | cur[x + static_cast<std::size_t>(k)];
      ++counts[px];
    }
    prev.swap(cur);
  }
  std::uint64_t top = 0;
  for (const auto& kv : counts) top = std::max(top, kv.second);
  const double dominant = 100.0 * static_cast<double>(top) / (static_cast<double>(w) * static_cast<double>(h));
  std::cout << argv[1] << ": " << w << "x" << h << ", " << counts.size() << " distinct colours, most frequent covers "
            << dominant << " %\n";
  if (counts.size() < min_colours) return fail("blank: fewer than " + std::to_string(min_colours) + " colours");
  if (dominant > max_dominant) return fail("blank: one colour covers more than " + std::to_string(max_dominant) + " %");
  return 0;
}
