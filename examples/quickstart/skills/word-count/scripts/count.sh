#!/bin/sh
# Prints the line, word and character counts of its arguments, joined by spaces.
printf '%s\n' "$*" | wc -lwm | awk '{ print "lines=" $1, "words=" $2, "characters=" $3 - 1 }'
