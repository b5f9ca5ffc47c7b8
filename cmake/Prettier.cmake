# Fetches prettier, the JavaScript/TypeScript formatter tests/formatters runs on tagged views, with
# `npm pack` (pinned, integrity-checked like the grammars: cmake/Grammar.cmake). Debian packages
# no prettier; the package has no dependencies and runs on Debian's nodejs (>= 14). Sets
# ANCHORFS_PRETTIER to its command-line script.
anchorfs_npm_package(prettier 3.10.1
  ef4be9dd9518a0f9456c5f6e8937571d4502184229edde3eea9fbc0d86e49b68cfef1ff78bfa5a5d517a768a52237cddfc2122b6b64dd6b7388bce715a699796
  bin/prettier.cjs _prettier_dir)
set(ANCHORFS_PRETTIER "${_prettier_dir}/bin/prettier.cjs")
