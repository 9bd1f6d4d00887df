// The built-in catalogue: each entry is embedded RLE parsed by our own
// reader. Every result quoted below was checked with Golly's bgolly
// (QuickLife); tests/patterns/bgolly_test.cpp checks them again.
#include "patterns/catalogue.h"

#include <algorithm>
#include <array>

#include "engine/core/error.h"
#include "patterns/rle.h"

namespace gol::patterns {
namespace {

struct Entry {
  std::string_view name;
  std::string_view description;
  std::string_view rle;
};

constexpr std::array kEntries = {
    Entry{"block", "2x2 still life", "2o$2o!"},
    Entry{"beehive", "6-cell still life", "b2o$o2bo$b2o!"},
    Entry{"blinker", "period-2 oscillator", "3o!"},
    Entry{"toad", "period-2 oscillator", "b3o$3o!"},
    Entry{"pulsar", "48-cell period-3 oscillator",
          "2b3o3b3o2$o4bobo4bo$o4bobo4bo$o4bobo4bo$2b3o3b3o2$2b3o3b3o$o4bobo4bo$o4bobo4bo$"
          "o4bobo4bo2$2b3o3b3o!"},
    Entry{"pentadecathlon", "12-cell period-15 oscillator", "2bo4bo$2ob4ob2o$2bo4bo!"},
    Entry{"glider", "moves (1,1) every 4 generations", "bo$2bo$3o!"},
    Entry{"lwss", "lightweight spaceship, c/2", "bo2bo$o4b$o3bo$4o!"},
    Entry{"mwss", "middleweight spaceship, c/2", "3bo$bo3bo$o$o4bo$5o!"},
    Entry{"hwss", "heavyweight spaceship, c/2", "3b2o$bo4bo$o$o5bo$6o!"},
    Entry{"r-pentomino", "methuselah: 116 cells at generation 1103", "b2o$2o$bo!"},
    Entry{"diehard", "methuselah that dies at generation 130", "6bo$2o$bo3b3o!"},
    Entry{"acorn", "methuselah: 633 cells at generation 5206", "bo$3bo$2o2b3o!"},
    Entry{"rabbits", "methuselah: stable at generation 17331 with 1744 cells", "o3b3o$3o2bo$bo!"},
    Entry{"bunnies", "methuselah: stable at generation 17332 with 1744 cells",
          "o5bo$2bo3bo$2bo2bobo$bobo!"},
    Entry{"lidka-predecessor",
          "2-generation predecessor of Lidka: settles at generation 29055, 1623 cells from 29056",
          "bo$obo$bo8$8bo$6bobo$5b2obo2$4b3o!"},
    Entry{"gosper-gun", "Gosper glider gun: one glider every 30 generations",
          "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$"
          "10bo5bo7bo$11bo3bo$12b2o!"},
    Entry{"switch-engine",
          "10-cell seed (Paul Callahan, 1997) that becomes a block-laying switch engine: "
          "linear growth forever",
          "6bo$4bob2o$4bobo$4bo$2bo$obo!"},
    Entry{"spacefiller",
          "Hartmut Holzwart's 1998 spacefiller: quadratic growth, population "
          "((t+17)^2+511)/4 at generations t divisible by 4",
          "20b3o3b3o$19bo2bo3bo2bo$4o18bo3bo18b4o$o3bo17bo3bo17bo3bo$o8bo12bo3bo12bo8bo$"
          "bo2bo2b2o2bo25bo2b2o2bo2bo$6bo5bo7b3o3b3o7bo5bo$6bo5bo8bo5bo8bo5bo$"
          "6bo5bo8b7o8bo5bo$bo2bo2b2o2bo2b2o4bo7bo4b2o2bo2b2o2bo2bo$"
          "o8bo3b2o4b11o4b2o3bo8bo$o3bo9b2o17b2o9bo3bo$4o11b19o11b4o$16bobo11bobo$"
          "19b11o$19bo9bo$20b9o$24bo$20b3o3b3o$22bo3bo2$21b3ob3o$21b3ob3o$20bob2ob2obo$"
          "20b3o3b3o$21bo5bo!"},
    Entry{"puffer-train",
          "c/2 puffer: a B-heptomino kept alive by two lightweight spaceships, leaving "
          "debris and escaping spaceships; 629558 cells at generation 200000",
          "3bo$4bo$o3bo$b4o4$o$b2o$2bo$2bo$bo3$3bo$4bo$o3bo$b4o!"},
    Entry{"breeder",
          "Bill Gosper's breeder (1971): quadratic growth from glider-gun puffers; "
          "201773 cells at generation 12000",
          "404bo2bo$408bo$404bo3bo$405b4o$416b2o$402bo11bo4bo$400bobo17bo$342bobo46bo8bobo11bo"
          "5bo$342bobo44bo3bo21b6o5b6o$331bo10bob2o48bo30bo5bo$329bo3bo10b2o43bo4bo36bo$334bo6b"
          "o2bo45b5o30bo4bo$329bo4bo7b2o83b2o$330b5o50b2o$385b2o32b3o5b2o$385b2o2bo13bo13bo3bo"
          "4bob2o$368b2o12b2ob2o3bo11bobo12bo7b2obobo$355b2o10bo2bo8b2o2bobo4bo4b2o4bo9b2o4bo7b"
          "ob2ob2o$355b2o11b2o9b2o2b3o3bo5b2o5bo8b2o5bo2bo3bo3b2o$419bobo5b3o2$419bobo5b3o$355b"
          "2o11b2o9b2o2b3o3bo5b2o5bo8b2o5bo2bo3bo3b2o$355b2o10bo2bo8b2o2bobo4bo4b2o4bo9b2o4bo7b"
          "ob2ob2o$368b2o12b2ob2o3bo11bobo12bo7b2obobo$385b2o2bo13bo13bo3bo4bob2o$385b2o32b3o5b"
          "2o$330b5o50b2o$329bo4bo7b2o83b2o$334bo6bo2bo45b5o30bo4bo$329bo3bo10b2o43bo4bo36bo$"
          "331bo10bob2o48bo30bo5bo$342bobo44bo3bo21b6o5b6o$342bobo46bo8bobo11bo5bo$400b2o18bo$"
          "401bo12bo4bo$416b2o$477b2o$475b2ob2o$475b4o$476b2o$376bobo$376b2o111b2o$377bo107b4ob"
          "2o5b4o$485b6o5b6o$463b2o21b4o6b4ob2o$460b3ob2o34b2o$403b2o55b5o21bo$400b3ob2o46bo8b"
          "3o23bo$352bobo45b5o21b3o23bo32b4o$352b2o47b3o20bo2b2o54b2o3bob2o$353bo69bo3bobo26bo"
          "11b2o14bobobobo7b2o$421bo3bo9bobo13b4obo10bo2bo13bo3b3o2bo3bo2b2o$405b2o14bo3b2o11bo"
          "11bo2bob2o4b2o4bobo7b2o6bobo3bo4b3o2bo$405b2o14bo8bo3b2obo12bobo8b2o5bo8b2o7bo4b3o2b"
          "o4bo$422bo3bo3b3o3bo14bo44b5o2$328bobo91bo3bo3b3o3bo14bo44b5o$328b2o11b2o30b2o30b2o"
          "14bo8bo3b2obo12bobo8b2o5bo8b2o7bo4b3o2bo4bo$329bo11b2o30b2o30b2o14bo3b2o11bo11bo2bob"
          "2o4b2o4bobo7b2o6bobo3bo4b3o2bo$421bo3bo9bobo13b4obo10bo2bo13bo3b3o2bo3bo2b2o$423bo3b"
          "obo26bo11b2o14bobobobo7b2o$424bo2b2o54b2o3bob2o$426b3o23bo32b4o$452bo8b3o23bo$460b5o"
          "21bo$460b3ob2o34b2o89b2o$463b2o21b4o6b4ob2o87b4o$485b6o5b6o88b2ob2o$485b4ob2o5b4o91b"
          "2o$489b2o$464bo136b4o$464bobo133b6o$280bobo181b2o134b4ob2o$280b2o294b3o13b3o9b2o9b2o"
          "$281bo252bobo38b5o12bo18b4ob2o$516b3o14b2o2bo37b3ob2o12bo17b6o$515b5o12b3o2bo40b2o"
          "27bo4b4o$515b3ob2o10b3o72bo2bo$440bo77b2o11bobo2b2o59b3o$440bobo87b2ob3obo38b2o17b5o"
          "12b2o$440b2o89bo6bo37b2o16b3o14bo3bo$532bo4bo20b2o15bo2bo14bo3bo9bo3bo4bo$534b5o6b2o"
          "10bo2bo8b2o4bobo7b2o5b2o2bo4b2o5bobo5bo$538b2o5b2o11b2o9b2o5bo8b2o5bo6b3o9b2ob3o$"
          "538b2o53b8o2$538b2o53b8o$449b2o30b2o30b2o23b2o5b2o11b2o9b2o5bo8b2o5bo6b3o9b2ob3o81b"
          "2o$232bobo214b2o30b2o30b2o19b5o6b2o10bo2bo8b2o4bobo7b2o5b2o2bo4b2o5bobo5bo79b2ob2o$"
          "232b2o298bo4bo20b2o15bo2bo14bo3bo9bo3bo4bo79b4o$233bo297bo6bo37b2o16b3o14bo3bo81b2o$"
          "530b2ob3obo38b2o17b5o12b2o$531bobo2b2o59b3o110b2o$531b3o72bo2bo96b4ob2o5b4o$392bo"
          "139b3o2bo40b2o27bo4b4o90b6o5b6o$392bobo138b2o2bo37b3ob2o12bo17b6o67b2o21b4o6b4ob2o$"
          "392b2o140bobo38b5o12bo18b4ob2o63b3ob2o34b2o$576b3o13b3o9b2o9b2o7b2o55b5o21bo$600b4ob"
          "2o14b3ob2o46bo8b3o23bo$600b6o15b5o21b3o23bo32b4o$601b4o17b3o20bo2b2o54b2o3bob2o$644b"
          "o3bobo26bo11b2o14bobobobo7b2o$642bo3bo9bobo13b4obo10bo2bo13bo3b3o2bo3bo2b2o$569bo56b"
          "2o14bo3b2o11bo11bo2bob2o4b2o4bobo7b2o6bobo3bo4b3o2bo$184bobo381bo57b2o14bo8bo3b2obo"
          "12bobo8b2o5bo8b2o7bo4b3o2bo4bo$184b2o382b3o72bo3bo3b3o3bo14bo44b5o$185bo$643bo3bo3b"
          "3o3bo14bo44b5o$562b2o30b2o30b2o14bo8bo3b2obo12bobo8b2o5bo8b2o7bo4b3o2bo4bo$562b2o30b"
          "2o30b2o14bo3b2o11bo11bo2bob2o4b2o4bobo7b2o6bobo3bo4b3o2bo$344bo297bo3bo9bobo13b4obo"
          "10bo2bo13bo3b3o2bo3bo2b2o$344bobo198bo98bo3bobo26bo11b2o14bobobobo7b2o$344b2o198bo"
          "100bo2b2o54b2o3bob2o$544b3o100b3o23bo32b4o$673bo8b3o23bo$681b5o21bo$681b3ob2o34b2o$"
          "684b2o21b4o6b4ob2o$706b6o5b6o$706b4ob2o5b4o$136bobo571b2o$136b2o547bo$137bo547bobo$"
          "685b2o3$296bo$296bobo198bo$296b2o198bo$496b3o162bo55b2o$661bobo52b4o$661b2o53b2ob2o$"
          "718b2o2$727b4o$726b6o$88bobo635b4ob2o$88b2o547bo64b3o25b2o9b2o$89bo547bobo61b5o31b4o"
          "b2o$637b2o62b3ob2o16b2o12b6o$665b2o37b2o16bobo13b4o$664bo2bo53bo2bo12bo$248bo412b2ob"
          "o61bo9bobo$248bobo198bo216b2o52bo15bobo$248b2o198bo212bo3b2o39b2o17bobobo10b2o$448b"
          "3o212bobo22b2o15bo2bo13bo2bobo2bo9bobo$643b2o30b2o10bo2bo4bo3b2o4bobo7b2o6b2o5bo2bo"
          "8bo$643b2o23b2o5b2o11b2o5bo3b2o5bo8b2o11bobobo2bo4b3o$668b2o55b2obo3bo2bo2$668b2o55b"
          "2obo3bo2bo$3b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b"
          "2o30b2o30b2o30b2o30b2o30b2o30b2o23b2o5b2o11b2o5bo3b2o5bo8b2o11bobobo2bo4b3o$3b2o30b"
          "2o3bobo24b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o"
          "30b2o30b2o30b2o30b2o30b2o10bo2bo4bo3b2o4bobo7b2o6b2o5bo2bo8bo$40b2o547bo73bobo22b2o"
          "15bo2bo13bo2bobo2bo9bobo$41bo547bobo69bo3b2o39b2o17bobobo10b2o$589b2o75b2o52bo15bobo"
          "$3bo657b2obo61bo9bobo$2b3o659bo2bo53bo2bo12bo$bo3bo194bo464b2o37b2o16bobo13b4o$ob3ob"
          "o193bobo198bo299b3ob2o16b2o12b6o$b5o194b2o198bo300b5o31b4ob2o$196b2o30b2o30b2o30b2o"
          "30b2o30b2o30b2o10b3o17b2o30b2o30b2o30b2o30b2o152b3o25b2o9b2o$35b2o30b2o30b2o30b2o30b"
          "2o30bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo"
          "2bo175b4ob2o$35bobo29bobo29bobo29bobo29bobo29bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2b"
          "o28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo175b6o$36b2o30b2o30b2o30b2o30b2o30b2o30b"
          "2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o177b4o$6b3o692bo$8bo691bo$7bo$"
          "701bobo$703bo$701bo$702bo2$38b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o"
          "371b4o$4b3o30bobo29bobo29bobo29bobo29bobo29bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo"
          "369b6o$3bo3bo29b2o30b2o30b2o30b2o30b2o30bo2bo28bo2bo28bo2bo28bo2bo28bo2bo28bo2bo229b"
          "2o138b4ob2o$2bo5bo189b2o30b2o30b2o30b2o30b2o30b2o229b2o115b3o25b2o9b2o$2b2obob2o193b"
          "2o387bo113b5o15b3o13b4ob2o$202bobo461b2o37b3ob2o14bo15b6o$202bo464b2o39b2o18bo13b4o$"
          "5bo659bobo59bo12bo$4bobo657b3o71b2o$4bobo34b2o621bo2bo62bo8bo2bo$5bo35bobo356b2o262b"
          "ob3o39b2o19b4o7b3ob2o$41bo357b2o264bo2bo21b2o15bo2bo21bo13bo$5b2o30b2o30b2o30b2o30b"
          "2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o10bo19b2o30b2o30b2o30b2o30b2o30b2o30b2o30b"
          "2o19b2o9b2o10bo2bo8b2o4bobo7b2o5b4o2bob2o12bo$5b2o30b2o30b2o30b2o30b2o30b2o30b2o30b"
          "2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o30b2o23b2o5b2o11b2o9b"
          "2o5bo8b2o5bobobobo4b2o5bo2b2o$670b2o53b2o2bobo11b2o2$670b2o53b2o2bobo11b2o$422bo30b"
          "2o30b2o30b2o30b2o30b2o30b2o30b2o23b2o5b2o11b2o9b2o5bo8b2o5bobobobo4b2o5bo2b2o$422bo"
          "30b2o30b2o30b2o30b2o30b2o30b2o23b2o5b2o19b2o9b2o10bo2bo8b2o4bobo7b2o5b4o2bob2o12bo$"
          "424b2o211b2o26bo2bo21b2o15bo2bo21bo13bo$250b2o387bo24bob3o39b2o19b4o7b3ob2o$250bobo"
          "411bo2bo62bo8bo2bo$250bo413b3o71b2o$665bobo59bo12bo$667b2o39b2o18bo13b4o$89b2o575b2o"
          "37b3ob2o14bo15b6o$89bobo356b2o212b2o41b5o15b3o13b4ob2o$89bo357b2o212b2o43b3o25b2o9b"
          "2o$449bo213bo66b4ob2o$730b6o$731b4o2$479b6o6b2o229b2o$478bo5bo4bo4bo225b2ob2o$472b2o"
          "10bo10bo190b2o32b4o$414b2o38b5o12b2o5bo4bo5bo5bo189b2o34b2o$298b2o113b3o37bo4bo14bo"
          "6b2o8b6o191bo$298bobo93b5o12b2o3bo41bo27bo$298bo94bo4bo12bo3bo37bo3bo28b3o$398bo11bo"
          "44bo21bo7bob2o2bo$393bo3bo12b3o2b2o59b3o8b3o2bo$137b2o256bo14bobob3o38b2o16b3o10b5o"
          "2bo$137bobo271b3ob2o20b2o15bo2bo14bo3bo3bo5b3obob3o215b2o$137bo275b2o9b2o10bo2bo8b2o"
          "4bobo7b2o5bo2bobo4bo9b2ob2o213b2o$417b2o5b2o11b2o9b2o5bo8b2o5bo8bo9b2ob2o216bo$417b"
          "2o53b8o252b6o6b2o$731bo5bo4bo4bo$417b2o53b8o257bo10bo$360b2o30b2o23b2o5b2o11b2o9b2o"
          "5bo8b2o5bo8bo9b2ob2o212b5o19bo4bo5bo5bo$360b2o30b2o19b2o9b2o10bo2bo8b2o4bobo7b2o5bo"
          "2bobo4bo9b2ob2o210bo4bo20bobo8b6o$411b3ob2o20b2o15bo2bo14bo3bo3bo5b3obob3o152b5o59bo"
          "$410bobob3o38b2o16b3o10b5o2bo152bo4bo21bo32bo3bo20bo2bo$346b2o62b3o2b2o59b3o8b3o2bo"
          "158bo20bobo33bo21b3ob2o$346bobo61bo44bo21bo7bob2o2bo154bo3bo24bo53b2o3bob2o$346bo64b"
          "o3bo37bo3bo28b3o159bo21bob2o24b2obo12b2o14bo3bo9b3o$411b2o3bo41bo27bo181bob2o25b4ob"
          "2o9bo2bo13bobobob2o4bo3b2o$413b3o37bo4bo14bo6b2o8b6o155b2o13b3o2b2o7b2ob2o11bo4b2o4b"
          "2o4bobo7b2o6b5obobo2bobo2b2o$185b2o227b2o38b5o12b2o5bo4bo5bo5bo155b2o14b2o2b2o3bo4b"
          "3o12bobo8b2o5bo8b2o7bo4b2o2bo5bo$185bobo284b2o10bo10bo180b2o3b2o14bo40bo3b5o$185bo"
          "292bo5bo4bo4bo$370b2o107b6o6b2o183b2o3b2o14bo40bo3b5o$370bobo278b2o14b2o2b2o3bo4b3o"
          "12bobo8b2o5bo8b2o7bo4b2o2bo5bo$370bo97bo2bo179b2o13b3o2b2o7b2ob2o11bo4b2o4b2o4bobo7b"
          "2o6b5obobo2bobo2b2o$472bo195bob2o25b4ob2o9bo2bo13bobobob2o4bo3b2o$468bo3bo175bo21bob"
          "2o24b2obo12b2o14bo3bo9b3o$469b4o173bo3bo24bo53b2o3bob2o$651bo20bobo33bo21b3ob2o$646b"
          "o4bo21bo32bo3bo20bo2bo$394b2o251b5o59bo$394bobo309bo4bo20bobo8b6o$394bo312b5o19bo4bo"
          "5bo5bo$737bo10bo$731bo5bo4bo4bo$233b2o497b6o6b2o$233bobo$233bo487bo2bo$418b2o305bo$"
          "418bobo300bo3bo$418bo303b4o6$442b2o$442bobo$442bo3$281b2o$281bobo$281bo$466b2o$466bo"
          "bo$466bo$491b2o$487b4ob2o5b4o$487b6o5b6o$465b2o21b4o6b4ob2o$462b3ob2o34b2o$462b5o21b"
          "o$454bo8b3o23bo$428b3o23bo32b4o$426bo2b2o54b2o3bob2o$425bo3bobo26bo11b2o14bobobobo7b"
          "2o$329b2o92bo3bo9bobo13b4obo10bo2bo13bo3b3o2bo3bo2b2o$329bobo11b2o30b2o30b2o14bo3b2o"
          "11bo11bo2bob2o4b2o4bobo7b2o6bobo3bo4b3o2bo$329bo13b2o30b2o30b2o14bo8bo3b2obo12bobo8b"
          "2o5bo8b2o7bo4b3o2bo4bo$424bo3bo3b3o3bo14bo44b5o2$424bo3bo3b3o3bo14bo44b5o$407b2o14bo"
          "8bo3b2obo12bobo8b2o5bo8b2o7bo4b3o2bo4bo$407b2o14bo3b2o11bo11bo2bob2o4b2o4bobo7b2o6bo"
          "bo3bo4b3o2bo$353b2o68bo3bo9bobo13b4obo10bo2bo13bo3b3o2bo3bo2b2o$353bobo69bo3bobo26bo"
          "11b2o14bobobobo7b2o$353bo49b3o20bo2b2o54b2o3bob2o$402b5o21b3o23bo32b4o$402b3ob2o46bo"
          "8b3o23bo$405b2o55b5o21bo$462b3ob2o34b2o$465b2o21b4o6b4ob2o$377b2o108b6o5b6o$377bobo"
          "107b4ob2o5b4o$377bo113b2o2$478b2o$477b4o$477b2ob2o$479b2o$401b2o$401bobo16b2o$401bo"
          "14b4ob2o5b4o$416b6o5b6o$374bo19b2o21b4o6b4ob2o$372b2obo15b3ob2o34b2o$334b2o35bo3bo"
          "15b5o$331b3ob2o30b4obobo17b3o$331b5o30bobo3b2o12b2o33bo$332b3o20bo4b2o4bobo16bo2bo"
          "32b2o5b3o$354bobo2b2obo2b2ob2o18bo15bo14bo2bo3b2o$353bo3bo2b2ob3o2b4o11b2o5b2o11b2o"
          "12b3o6bo4b2o$340b2o12bo2bo4bo3b2obob2o17b2o4b2o4b3o7b2o4b2o5b2ob2o2bo$340b2o12b2ob2o"
          "9b2ob2o11bobo9b2o14b2o5bobo10bo$370bo14bo35bo7b3o2$370bo14bo35bo7b3o$340b2o12b2ob2o"
          "9b2ob2o11bobo9b2o14b2o5bobo10bo$340b2o12bo2bo4bo3b2obob2o17b2o4b2o4b3o7b2o4b2o5b2ob"
          "2o2bo$353bo3bo2b2ob3o2b4o11b2o5b2o11b2o12b3o6bo4b2o$354bobo2b2obo2b2ob2o18bo15bo14bo"
          "2bo3b2o$332b3o20bo4b2o4bobo16bo2bo32b2o5b3o$331b5o30bobo3b2o12b2o33bo$331b3ob2o30b4o"
          "bobo17b3o$334b2o35bo3bo15b5o$372b2obo15b3ob2o34b2o$374bo19b2o21b4o6b4ob2o$416b6o5b6o"
          "$416b4ob2o5b4o$403b2o15b2o$402bo$407b2o$406b4o$406b2ob2o$408b2o!"},
};

const Entry* find_entry(std::string_view name) {
  const auto it = std::find_if(kEntries.begin(), kEntries.end(),
                               [&](const Entry& e) { return e.name == name; });
  return it == kEntries.end() ? nullptr : &*it;
}

std::string joined_names() {
  std::string out;
  for (const Entry& e : kEntries) {
    if (!out.empty()) out += ", ";
    out += e.name;
  }
  return out;
}

}  // namespace

const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Entry& e : kEntries) out.emplace_back(e.name);
    return out;
  }();
  return names;
}

Pattern builtin_pattern(std::string_view name) {
  const Entry* entry = find_entry(name);
  const std::string source = "builtin:" + std::string(name);
  if (entry == nullptr) {
    throw InputError(source, 0, 0, "no such built-in pattern; known: " + joined_names());
  }
  Pattern pattern = parse_rle(entry->rle, source);
  pattern.name = std::string(entry->name);
  pattern.format = "builtin";
  pattern.comments = {std::string(entry->description)};
  return pattern;
}

std::string_view builtin_description(std::string_view name) {
  const Entry* entry = find_entry(name);
  return entry == nullptr ? std::string_view() : entry->description;
}

}  // namespace gol::patterns
