/*
The feature events written by dyn_features.c (C API) and dyn_features.cpp
(C++ API): the same events, byte for byte, through both. Values and names
shared by both programs.

Provider EhdFeatures, options/group Gtests:
  set A = level 5, keyword 0x1      (EhdFeatures_L5K1Gtests)
  set B = level 2, keyword 0xf00    (EhdFeatures_L2Kf00Gtests)
Events, in order (set A unless noted):
  Values1, Values2, Values4, Values8, Values16
      one value field per format (named after it), of 1 ... 16 bytes;
      field i has field tag 0 if i % 3 == 0, else 0x100 + i
  Strings     counted and NUL-terminated strings of 8-, 16- and 32-bit chars,
              wchar_t strings, binary, string formats, an empty string
  Ranges      variable-count arrays of values and strings (contiguous and not)
  Nested      tag 0x1234, id 42 version 3, opcode activity_start, activity and
              related ids; nested structs whose counts are set by bookmark
  StructArray a variable-count array of 3 structs {x, y, label}, then a field
  OnSetB      set B, written twice
*/
#ifndef DYN_FEATURES_DATA_H
#define DYN_FEATURES_DATA_H

#include <eventheader/eventheader.h>
#include <stdint.h>

#include "formats.h"

#define FEAT_PROVIDER "EhdFeatures"
#define FEAT_GROUP "tests"
#define FEAT_OPTIONS "Gtests"

/* The Values* fields: one per format of formats.h, named after it, field i
   with this tag. */
static uint16_t feat_field_tag(unsigned i)
{
    return i % 3 == 0 ? 0 : (uint16_t)(0x100 + i);
}

/* The value of every Values<N> field. */
static uint8_t const feat_v8 = 0x81;
static uint16_t const feat_v16 = 0x8182;
static uint32_t const feat_v32 = 0x7f000001; /* reads as 127.0.0.1 in network order too */
static uint64_t const feat_v64 = 0x8182838485868788ull;
static uint8_t const feat_v128[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                       0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };

/* Nested: the activity and related activity ids. */
static uint8_t const feat_activity[16] = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
                                           0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f };
static uint8_t const feat_related[16] = { 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
                                          0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f };

/* StructArray: the points. */
struct feat_point {
    int32_t x;
    int32_t y;
    char const* label;
};

static struct feat_point const feat_points[3] = {
    { 1, -1, "first" },
    { 20, -20, "" },
    { 300, -300, "third" },
};

#endif /* DYN_FEATURES_DATA_H */
