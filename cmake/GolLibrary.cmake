# gol_folder_library(NAME GLOBS... LINK libs...): a static library from the
# sources a folder holds; an interface library while it holds none yet.
function(gol_folder_library name)
  cmake_parse_arguments(ARG "" "" "GLOBS;PUBLIC;PRIVATE" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${ARG_GLOBS})
  if(sources)
    add_library(${name} STATIC ${sources})
    target_link_libraries(${name} PUBLIC ${ARG_PUBLIC} PRIVATE ${ARG_PRIVATE})
  else()
    add_library(${name} INTERFACE)
    target_link_libraries(${name} INTERFACE ${ARG_PUBLIC})
  endif()
endfunction()
