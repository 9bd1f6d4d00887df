// `gol render`: a pattern, optionally run for some generations, drawn as a
// PNG or a numbered sequence of PNGs (patterns/png_render.h).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "engine/cli/pattern_outputs.h"
#include "engine/cli/subcommands.h"
#include "engine/core/error.h"
#include "engine/core/output_file.h"
#include "engine/simulation.h"
#include "patterns/pattern_io.h"
#include "patterns/png_render.h"

namespace gol::cli {
namespace {

constexpr uint64_t kMaxGeneration = std::numeric_limits<int64_t>::max();
constexpr uint64_t kMaxFrames = 1'000'000;
// Frame numbers have at least this many digits, so names sort in order.
constexpr size_t kMinFrameDigits = 4;

struct RenderArguments {
  std::string pattern;
  std::optional<std::string> format;
  uint64_t generations = 0;
  std::string out;
  std::optional<std::string> size;
  std::optional<std::string> zoom;
  std::optional<std::string> window;
  uint64_t frames = 1;
  std::optional<uint64_t> every;
  std::string backend = "auto";
  int threads = 0;
};

bool ends_with_png(std::string_view path) {
  if (path.size() < 4) return false;
  std::string suffix(path.substr(path.size() - 4));
  std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return suffix == ".png";
}

// "life.png", frame 7 of 100 -> "life-0007.png". Every frame's name has
// the same length, so checking the first checks them all.
std::string frame_path(const std::string& out, uint64_t frame, uint64_t frames) {
  if (frames == 1) return out;
  const size_t digits = std::max(kMinFrameDigits, std::to_string(frames - 1).size());
  std::string number = std::to_string(frame);
  number.insert(0, digits - number.size(), '0');
  return out.substr(0, out.size() - 4) + "-" + number + out.substr(out.size() - 4);
}

patterns::RenderOptions render_options(const RenderArguments& a) {
  if (a.size && a.zoom) throw UsageError("--size and --zoom cannot both be given");
  patterns::RenderOptions options;
  if (a.size) {
    const auto [width, height] = patterns::parse_image_size(*a.size);
    options.width = width;
    options.height = height;
  }
  if (a.zoom) options.zoom = patterns::parse_zoom(*a.zoom);
  if (a.window) options.window = patterns::parse_window(*a.window);
  return options;
}

void check_frames(const RenderArguments& a) {
  if (a.frames > 1 && !a.every) {
    throw UsageError("--frames " + std::to_string(a.frames) +
                     " needs --every K (generations between frames)");
  }
  if (a.every && a.frames == 1) throw UsageError("--every needs --frames N (more than one)");
  uint64_t span = 0;
  uint64_t last = 0;
  if (__builtin_mul_overflow(a.frames - 1, a.every.value_or(0), &span) ||
      __builtin_add_overflow(a.generations, span, &last) || last > kMaxGeneration) {
    throw UsageError("the last frame would be past generation 2^63-1");
  }
}

// Mistakes on the command line (exit 2), then the output's folder (exit 4),
// all before the pattern is loaded, so a long run never ends unwritable.
void check_output(const RenderArguments& a) {
  if (a.out == "-") {
    if (a.frames > 1) throw UsageError("--out - writes one picture; --frames needs a FILE.png");
    return;
  }
  if (!ends_with_png(a.out)) {
    throw UsageError("--out '" + a.out + "': expected a file name ending in .png, or -");
  }
  check_output_path(frame_path(a.out, 0, a.frames), "--out");
}

std::string zoom_text(const patterns::Zoom& zoom) {
  return zoom.cells > 1 ? "1:" + std::to_string(zoom.cells) : std::to_string(zoom.pixels);
}

// Writes one picture; returns the line that reports it.
std::string write_frame(const std::string& path, const patterns::GrayImage& image) {
  const std::string png = patterns::encode_png(image);
  if (path == "-") {
    if (std::fwrite(png.data(), 1, png.size(), stdout) != png.size()) {
      throw RuntimeError("cannot write the PNG to standard output");
    }
  } else {
    write_file_atomically(path, png);
  }
  return (path == "-" ? "standard output" : path) + ": " + std::to_string(image.width) + " x " +
         std::to_string(image.height) + " pixels at " + zoom_text(image.zoom) +
         ", top-left cell (" + std::to_string(image.origin.x) + ", " +
         std::to_string(image.origin.y) + ")";
}

std::optional<patterns::PatternFormat> input_format(const RenderArguments& a) {
  const std::optional<patterns::PatternFormat> format = format_option(a.format);
  if (format && a.pattern != "-") {
    throw UsageError(
        "--format applies to '-' (standard input); a file's format is told by content");
  }
  return format;
}

int render_command(const RenderArguments& a) {
  const std::optional<patterns::PatternFormat> format = input_format(a);
  check_frames(a);
  patterns::RenderOptions options = render_options(a);
  check_output(a);

  SimulationOptions simulation;
  simulation.backend = a.backend;
  simulation.backend_options.threads = a.threads;
  Simulation world(patterns::load_pattern(a.pattern, format), simulation);
  world.advance(a.generations);
  // With the picture on standard output, the report goes to stderr.
  std::ostream& report = a.out == "-" ? std::cerr : std::cout;
  for (uint64_t frame = 0; frame < a.frames; ++frame) {
    if (frame > 0) world.advance(*a.every);
    const CellSet cells = world.cells();
    // The view is fixed by the first frame, so a sequence does not jump.
    if (!options.window) options.window = cells.bbox().value_or(BBox{});
    const patterns::GrayImage image = patterns::render_image(cells, options);
    report << write_frame(frame_path(a.out, frame, a.frames), image) << ", generation "
           << world.generation() << ", population " << cells.population() << "\n";
  }
  return 0;
}

}  // namespace

Subcommand add_render_subcommand(CLI::App& gol) {
  auto a = std::make_shared<RenderArguments>();
  CLI::App* render = gol.add_subcommand("render", "Draw a pattern as a PNG (or a PNG sequence)");
  render
      ->add_option("PATTERN", a->pattern,
                   "A file, - (standard input), builtin:NAME or soup:WxH[:DENSITY[:SEED]]")
      ->required();
  render->add_option("--format", a->format, "rle, cells or mc: read standard input as this format")
      ->check(CLI::IsMember({"rle", "cells", "mc"}));
  render->add_option("--gens", a->generations, "Generations to run before the (first) picture")
      ->check(whole_number(0, kMaxGeneration))
      ->type_name("N");
  render
      ->add_option("--out", a->out,
                   "FILE.png, or - (standard output); with --frames, FILE-0000.png, "
                   "FILE-0001.png, ...")
      ->required();
  render->add_option("--size", a->size, "WxH: the image size; the window is fitted into it");
  render->add_option("--zoom", a->zoom,
                     "Z: Z pixels a cell (4), or 1:Z for Z cells a pixel (1:8), each pixel then "
                     "showing the share of its cells alive");
  render->add_option("--window", a->window,
                     "x0,y0,x1,y1: the cells to show (default: the pattern's bounding box, taken "
                     "from the first frame)");
  render->add_option("--frames", a->frames, "N pictures, --every K generations apart")
      ->check(whole_number(1, kMaxFrames))
      ->type_name("N");
  render->add_option("--every", a->every, "Generations between frames")
      ->check(whole_number(1, kMaxGeneration))
      ->type_name("K");
  render->add_option("--backend", a->backend,
                     "auto, cpu or a name from 'gol backends' (default: auto)");
  render->add_option("--threads", a->threads, "CPU threads, up to 4096 (0: all)")
      ->check(whole_number(0, 4096))
      ->type_name("N");
  add_max_memory_option(*render);
  render->footer(
      "Without --size or --zoom, the window's longer side becomes at most 1024 pixels, up to\n"
      "16 pixels a cell. Pictures are 8-bit grayscale: dead cells black, live cells white;\n"
      "zoomed out, a pixel with live cells is at least a quarter bright and brighter with\n"
      "the share of its cells alive.\n"
      "Exit codes: 0 success, 2 bad command line, 3 bad input, 4 runtime failure.");
  return {render, [a](const std::vector<std::string>&) { return render_command(*a); }};
}

}  // namespace gol::cli
