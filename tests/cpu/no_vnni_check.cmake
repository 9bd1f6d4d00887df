# Disassembles the CPU kernels' library (LIBRARY, with OBJDUMP) and fails if
# it holds a VNNI instruction: the AVX3_DL kernel runs where the CPU has
# AVX-512 VNNI but maybe not AVX-VNNI (see cpu_runs in
# cpu/simd/tile_step_highway.cpp), which is safe only while the compiler
# emits neither. It also fails if no AVX3_DL funnel shift is found, so that
# a build without that target cannot pass it by having nothing to check.
execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn ${LIBRARY}
  OUTPUT_FILE ${WORK_DIR}/gol_cpu_disassembly.txt RESULT_VARIABLE disassembled)
if(NOT disassembled EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} could not disassemble ${LIBRARY} (exit ${disassembled})")
endif()
file(STRINGS ${WORK_DIR}/gol_cpu_disassembly.txt vnni REGEX "vpdp(bus|wss)ds?[ \t]")
file(STRINGS ${WORK_DIR}/gol_cpu_disassembly.txt funnel_shifts REGEX "vpsh[lr]dq[ \t]")
file(REMOVE ${WORK_DIR}/gol_cpu_disassembly.txt)
if(vnni)
  list(GET vnni 0 first)
  message(FATAL_ERROR "${LIBRARY}: expected no VNNI instruction, found: ${first}")
endif()
if(NOT funnel_shifts)
  message(FATAL_ERROR "${LIBRARY}: expected the AVX3_DL kernel's vpshldq/vpshrdq, found none")
endif()
list(LENGTH funnel_shifts count)
message(STATUS "no VNNI instruction; ${count} AVX3_DL funnel shifts")
