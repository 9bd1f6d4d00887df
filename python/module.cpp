// The Python module `gol`: the public C++ API (<gol/gol.h>) with cells as
// NumPy arrays and gol's errors as Python exceptions carrying the gol
// command's messages.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gol/gol.h"

namespace py = pybind11;

namespace {

// The Python classes of gol's errors, created once when the module loads and
// kept for the life of the process (the translator may run at any time).
struct ErrorTypes {
  py::handle error;
  py::handle usage;
  py::handle input;
  py::handle runtime;
};

ErrorTypes& error_types() {
  static ErrorTypes types;
  return types;
}

py::handle add_error_type(py::module_& module, const char* name, const py::tuple& bases,
                          const char* doc) {
  const std::string qualified = std::string("gol.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.add_object(name, type);
  return type;
}

// gol.InputError also carries where the input went wrong, as InputError does.
void raise_input_error(const gol::InputError& e) {
  py::object error = py::reinterpret_borrow<py::object>(error_types().input)(e.what());
  error.attr("source") = e.source();
  error.attr("line") = e.line();
  error.attr("column") = e.column();
  PyErr_SetObject(error_types().input.ptr(), error.ptr());
}

void register_errors(py::module_& module) {
  ErrorTypes& types = error_types();
  types.error = add_error_type(module, "Error", py::make_tuple(py::handle(PyExc_Exception)),
                               "Any error gol reports; str() is the gol command's message.");
  types.usage = add_error_type(
      module, "UsageError", py::make_tuple(types.error, py::handle(PyExc_ValueError)),
      "A bad argument: an unknown backend, file extension or thread count.");
  types.input = add_error_type(
      module, "InputError", py::make_tuple(types.error, py::handle(PyExc_ValueError)),
      "A pattern, rule or torus size that cannot be used; .source, .line and "
      ".column say where (0 when not applicable).");
  types.runtime = add_error_type(
      module, "RuntimeError", py::make_tuple(types.error, py::handle(PyExc_RuntimeError)),
      "A backend that cannot run here, a device failure, or a file that cannot be written.");
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const gol::InputError& e) {
      raise_input_error(e);
    } catch (const gol::UsageError& e) {
      PyErr_SetString(error_types().usage.ptr(), e.what());
    } catch (const gol::RuntimeError& e) {
      PyErr_SetString(error_types().runtime.ptr(), e.what());
    } catch (const gol::Error& e) {
      PyErr_SetString(error_types().error.ptr(), e.what());
    }
  });
}

// str or os.PathLike, as open() takes.
std::string path_string(const py::object& path) {
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

// Options given the Python way, as the strings the gol command takes: None
// is "" (the default), a str is passed on, and a sequence of `count` ints is
// joined by `separator`, so (64, 32) is "64x32" and (0, 0, 9, 9) "0,0,9,9".
std::string option_text(const py::object& value, const char* separator, size_t count,
                        const char* expected) {
  if (value.is_none()) return "";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (!py::isinstance<py::sequence>(value) || py::len(value) != count) {
    throw py::type_error(expected);
  }
  std::string text;
  for (const py::handle item : value.cast<py::sequence>()) {
    if (!text.empty()) text += separator;
    text += std::to_string(item.cast<int64_t>());
  }
  return text;
}

// zoom: pixels a cell as an int, or "1:8" for 8 cells a pixel.
std::string zoom_text(const py::object& zoom) {
  if (zoom.is_none()) return "";
  if (py::isinstance<py::str>(zoom)) return zoom.cast<std::string>();
  if (py::isinstance<py::int_>(zoom)) return std::to_string(zoom.cast<int64_t>());
  throw py::type_error("zoom must be None, pixels a cell (an int) or \"1:N\" for N cells a pixel");
}

// A World as Python holds it. The engine runs with the GIL released, so
// other Python threads go on meanwhile; the world's own lock keeps two of
// them from using it at once. The lock is only ever taken without the GIL
// held, so a thread waiting for it never holds up one that has it and
// wants the GIL back.
class SharedWorld {
 public:
  explicit SharedWorld(gol::World world) : world_(std::move(world)) {}

  // `use(world)` under the lock and without the GIL: it must not touch
  // Python objects unless it takes the GIL back.
  template <typename Use>
  auto with_world(Use use) {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(mutex_);
    return use(world_);
  }

 private:
  gol::World world_;
  std::mutex mutex_;
};

std::unique_ptr<SharedWorld> load(const py::object& spec, const std::string& backend,
                                  const std::optional<std::string>& rule, const py::object& torus,
                                  int threads) {
  const std::string spec_text = path_string(spec);
  gol::LoadOptions options;
  options.backend = backend;
  options.rule = rule.value_or("");
  options.topology =
      option_text(torus, "x", 2, "torus must be None, \"WxH\" or a (width, height) pair");
  options.threads = threads;
  // Reading a large file or building a large soup takes a while: let other
  // Python threads run meanwhile.
  py::gil_scoped_release release;
  return std::make_unique<SharedWorld>(gol::World::load(spec_text, options));
}

// Advances in chunks of about a tenth of a second, taking the GIL between
// them to see Ctrl-C, which stops the run there (the world then stands at
// the generation it reached). Holds the world's lock throughout, so other
// threads see the world before the step or after it.
void step(SharedWorld& shared, uint64_t generations) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kChunkTime = std::chrono::milliseconds(100);
  shared.with_world([&](gol::World& world) {
    uint64_t chunk = 1;
    uint64_t done = 0;
    while (done < generations) {
      const uint64_t this_chunk = std::min(chunk, generations - done);
      const auto start = Clock::now();
      world.advance(this_chunk, done + this_chunk < generations, generations - done);
      done += this_chunk;
      {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      }
      if (Clock::now() - start < kChunkTime && chunk < (uint64_t{1} << 40)) chunk *= 2;
    }
  });
}

// An (N, 2) int64 array of (x, y) rows that owns the engine's vector of
// cells, so large patterns are not copied a second time.
py::array_t<int64_t> cells_array(SharedWorld& shared) {
  static_assert(sizeof(gol::Cell) == 2 * sizeof(int64_t) && offsetof(gol::Cell, y) == 8,
                "a Cell is two packed int64 values, x then y");
  auto cells = std::make_unique<std::vector<gol::Cell>>(
      shared.with_world([](gol::World& world) { return world.cells(); }));
  if (cells->empty()) return py::array_t<int64_t>(std::vector<py::ssize_t>{0, 2});
  const auto rows = static_cast<py::ssize_t>(cells->size());
  int64_t* data = &cells->front().x;
  py::capsule owner(cells.get(),
                    [](void* vector) { delete static_cast<std::vector<gol::Cell>*>(vector); });
  cells.release();
  return py::array_t<int64_t>({rows, py::ssize_t{2}},
                              {py::ssize_t{sizeof(gol::Cell)}, py::ssize_t{sizeof(int64_t)}}, data,
                              owner);
}

py::object bbox_tuple(SharedWorld& shared) {
  const std::optional<gol::BBox> box =
      shared.with_world([](gol::World& world) { return world.bbox(); });
  if (!box) return py::none();
  return py::make_tuple(box->xmin, box->ymin, box->xmax, box->ymax);
}

void render(SharedWorld& shared, const py::object& path, const py::object& size,
            const py::object& zoom, const py::object& window) {
  gol::RenderOptions options;
  options.size = option_text(size, "x", 2, "size must be None, \"WxH\" or a (width, height) pair");
  options.zoom = zoom_text(zoom);
  options.window =
      option_text(window, ",", 4, "window must be None, \"x0,y0,x1,y1\" or (x0, y0, x1, y1)");
  const std::string path_text = path_string(path);
  shared.with_world([&](gol::World& world) { world.render(path_text, options); });
}

void save(SharedWorld& shared, const py::object& path) {
  const std::string path_text = path_string(path);
  shared.with_world([&](gol::World& world) { world.save(path_text); });
}

// A read-only property of the world: `read(world)` under the lock.
template <typename Result>
std::function<Result(SharedWorld&)> property(Result (gol::World::*read)() const) {
  return [read](SharedWorld& shared) {
    return shared.with_world([read](gol::World& world) { return (world.*read)(); });
  };
}

std::string world_repr(SharedWorld& shared) {
  return shared.with_world([](gol::World& world) {
    return "<gol.World generation=" + std::to_string(world.generation()) +
           " population=" + std::to_string(world.population()) + " rule=" + world.rule() + " " +
           world.topology() + " backend=" + world.backend() + ">";
  });
}

}  // namespace

PYBIND11_MODULE(gol, module) {
  module.doc() =
      "Conway's Game of Life and other Life-like rules on gol's CPU and GPU engines.\n\n"
      "    world = gol.load('builtin:acorn')\n"
      "    world.step(5206)\n"
      "    world.population, world.bbox, world.cells()";
  module.attr("__version__") = gol::version();
  register_errors(module);

  py::class_<gol::BackendDescription>(module, "Backend",
                                      "A stepping algorithm compiled into this module.")
      .def_readonly("name", &gol::BackendDescription::name)
      .def_readonly("description", &gol::BackendDescription::description)
      .def_readonly("available", &gol::BackendDescription::available)
      .def_readonly("unavailable_reason", &gol::BackendDescription::unavailable_reason)
      .def("__repr__", [](const gol::BackendDescription& backend) {
        return "<gol.Backend " + backend.name +
               (backend.available ? "" : " (unavailable: " + backend.unavailable_reason + ")") +
               ">";
      });

  py::class_<SharedWorld>(module, "World", "A pattern being run; made by gol.load().")
      .def("step", &step, py::arg("generations") = 1,
           "Advances the world by `generations`; Ctrl-C stops between chunks. A step "
           "that fails (memory, the plane's edge) leaves the world unusable: later "
           "steps and reads raise RuntimeError naming the failure.")
      .def_property_readonly("generation", property(&gol::World::generation),
                             "Counted from the pattern's own generation (#CXRLE Gen=).")
      .def_property_readonly("population", property(&gol::World::population))
      .def_property_readonly("bbox", &bbox_tuple,
                             "(xmin, ymin, xmax, ymax), inclusive, or None when empty.")
      .def("cells", &cells_array,
           "The live cells as an (N, 2) int64 array of (x, y) rows, by y then x.")
      .def("save", &save, py::arg("path"),
           "Writes .rle, .cells, .mc, or any of them with .gz, chosen by the extension.")
      .def("render", &render, py::arg("path"), py::kw_only(), py::arg("size") = py::none(),
           py::arg("zoom") = py::none(), py::arg("window") = py::none(),
           "Draws the cells into a grayscale PNG, live cells white; zoomed out, a pixel\n"
           "shows the density of the cells it covers. size=(W, H) fits the window into\n"
           "W x H pixels; zoom=4 draws 4 pixels a cell, zoom='1:8' 8 cells a pixel;\n"
           "window=(x0, y0, x1, y1) picks the cells (default: the bounding box).")
      .def_property_readonly("rule", property(&gol::World::rule))
      .def_property_readonly("topology", property(&gol::World::topology))
      .def_property_readonly("backend", property(&gol::World::backend))
      .def("__repr__", &world_repr);

  module.def("load", &load, py::arg("spec"), py::arg("backend") = "auto",
             py::arg("rule") = py::none(), py::arg("torus") = py::none(), py::arg("threads") = 0,
             "Loads a pattern file (RLE, .cells, Life 1.05/1.06, optionally gzipped),\n"
             "'builtin:NAME' or 'soup:WxH[:DENSITY[:SEED]]'. rule overrides the pattern's\n"
             "('B36/S23', or 'B3/S23:T64,64' with a torus); torus is 'WxH' or (W, H);\n"
             "threads=0 uses every core.");
  module.def("backends", &gol::backends, "Every backend compiled in, available here or not.");
}
