# A scalar expression of 50000 terms (a + a + ... : C++ compilers accept it) translates, fast:
# no recursion limit on the call stack, no walk that is quadratic in the chain's length.
# Inputs: -DTILECC=... -DWORKDIR=...
file(MAKE_DIRECTORY "${WORKDIR}")
string(REPEAT "x + " 49999 terms)
file(WRITE "${WORKDIR}/chain.tile.cpp" "#include <tilecc/tile.hpp>\nusing namespace tilecc;\nTILECC_KERNEL()\nvoid chain(float* out, float x, int n) {\n  float s = ${terms}x;\n  int k = n;\n  for (int i = 0; i < 2000; ++i) k = k * 3 + i - n % 7 + (k >> 2) - (k & 5) + i * i - 1 + 2 - 3 + 4 - 5 + 6;\n  store(out, s + k);\n}\n")
execute_process(COMMAND "${TILECC}" "${WORKDIR}/chain.tile.cpp" -o "${WORKDIR}/chain.cu" RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tilecc failed (${rc}) on a 50000-term expression: ${err}")
endif()
