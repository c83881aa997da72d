# tt_discovered_tests_environment(TARGET VAR=VALUE...)
#
# Gives every test that gtest_discover_tests() found in TARGET the environment
# VAR=VALUE... . gtest_discover_tests(PROPERTIES ENVIRONMENT "A=;B=") cannot
# do this in CMake < 3.28: its generated script splits the list into separate
# arguments, so only the first variable is set and the rest become bogus
# property names. Instead, a ctest include file that runs after the discovered
# list is loaded sets the property on that list (the TEST_LIST variable that
# GoogleTest.cmake documents for "further scripts").
#
# Call it after gtest_discover_tests(TARGET ... TEST_LIST ${TARGET}_TESTS).
function(tt_discovered_tests_environment target)
  set(env "${ARGN}")
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${target}_environment.cmake")
  file(GENERATE OUTPUT "${script}" CONTENT
"if(DEFINED ${target}_TESTS)
  set_tests_properties(\${${target}_TESTS} PROPERTIES ENVIRONMENT \"${env}\")
endif()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()
