// libFuzzer target: the rule parser (with Golly's ":Tw,h" torus suffix) and
// the torus size parser. What parses must print in a form that parses to
// the same rule and topology.
#include "engine/core/error.h"
#include "engine/core/rule.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gol;
  const std::string_view text = fuzz::as_text(data, size);
  try {
    const RuleSpec spec = parse_rule(text, "fuzz");
    const RuleSpec again = parse_rule(spec.to_string(), "round trip");
    GOL_CHECK(again.rule == spec.rule);
    GOL_CHECK(again.topology == spec.topology);
    GOL_CHECK(parse_rule(spec.rule.to_string(), "round trip").rule == spec.rule);
  } catch (const InputError&) {
  }
  try {
    const Topology torus = parse_torus_size(text, "fuzz");
    const std::string written = std::to_string(torus.width) + "x" + std::to_string(torus.height);
    GOL_CHECK(parse_torus_size(written, "round trip") == torus);
  } catch (const InputError&) {
  }
  return 0;
}
