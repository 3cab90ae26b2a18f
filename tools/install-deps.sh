#!/bin/sh
# Installs what tensoralias builds and tests with, from Debian's packages.
# Used by the README's set-up line and by .ci/run, so the list lives here only.
# (python3-venv: .ci/run installs pre-commit into a venv for the hook's test.)
# (nvcc is optional: with it, make also builds the CUDA device library; libtorch-dev
# gives the libtorch bridge, python3-torchvision a real TORCH_LIBRARY extension to test it on.)
# zlib1g-dev and liblzma-dev: the archives a static link of the library
# needs besides libxml2-dev's (tests/cli/install_lib.sh). python3-pytest and
# python3-venv: the Python package's plugin tests and its `pip install .` in CI
# (python3-torch, which they run on, comes with python3-torchvision).
set -eu
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential clang pkg-config xz-utils unzip python3-pip python3-venv \
    libyaml-dev libigraph-dev libjansson-dev libcmocka-dev libdlpack-dev \
    zlib1g-dev liblzma-dev \
    graphviz libtorch-dev python3-torchvision python3-pytest python3-venv >/dev/null
