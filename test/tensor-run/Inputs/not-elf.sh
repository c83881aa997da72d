#!/bin/sh
# A script: tensor-run refuses it (it instruments the LibTorch program a
# script starts, not the script).
echo "the script ran"
