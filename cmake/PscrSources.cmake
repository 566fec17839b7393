# Sources named *_tmpl.c hold one body for real and complex scalars (BLIS-style):
# each is compiled twice, with PSCR_Z = 0 (double) and PSCR_Z = 1 (double complex).
function(pscr_expand_templates out)
  set(result)
  foreach(src ${ARGN})
    if(src MATCHES "_tmpl\\.c$")
      get_filename_component(name ${src} NAME_WE)
      foreach(z 0 1)
        set(gen ${PROJECT_BINARY_DIR}/generated/tmpl/${name}_${z}.c)
        set(text "#define PSCR_Z ${z}\n#include \"${src}\"\n")
        if(EXISTS ${gen})
          file(READ ${gen} old)
        else()
          set(old "")
        endif()
        if(NOT old STREQUAL text)
          file(WRITE ${gen} "${text}")
        endif()
        set_source_files_properties(${gen} PROPERTIES OBJECT_DEPENDS ${src})
        list(APPEND result ${gen})
      endforeach()
    else()
      list(APPEND result ${src})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# Embeds kernels/common/*.h and kernels/{cuda,opencl}/* as C strings in one
# generated source, so the runtime compilers (NVRTC, clBuildProgram) get the
# single-source kernel text without files at run time.
function(pscr_embed_kernels out dir)
  file(GLOB_RECURSE kfiles CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.h
       ${PROJECT_SOURCE_DIR}/kernels/*.cu ${PROJECT_SOURCE_DIR}/kernels/*.cl)
  set(gen ${dir}/pscr_kernel_sources.c)
  add_custom_command(OUTPUT ${gen}
    COMMAND ${CMAKE_COMMAND} -DOUT=${gen} -DROOT=${PROJECT_SOURCE_DIR}/kernels
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedKernels.cmake
    DEPENDS ${kfiles} ${PROJECT_SOURCE_DIR}/cmake/EmbedKernels.cmake VERBATIM)
  set(${out} ${gen} PARENT_SCOPE)
endfunction()
