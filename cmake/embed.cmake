# Writes the bytes of INPUT into OUTPUT as a C array, so that a program
# carries a file it must not look for at run time:
#   const unsigned char NAME[] = { ..., 0 };  (NUL-terminated)
#   const size_t NAME_len;                     (without the NUL)
# Run as: cmake -DINPUT=... -DOUTPUT=... -DNAME=... -P embed.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR len "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
get_filename_component(input_name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp"
  "/* Generated from ${input_name} by cmake/embed.cmake: do not edit. */\n"
  "#include <stddef.h>\n"
  "extern const unsigned char ${NAME}[];\n"
  "extern const size_t ${NAME}_len;\n"
  "const unsigned char ${NAME}[] = {\n${bytes}0x00\n};\n"
  "const size_t ${NAME}_len = ${len};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
