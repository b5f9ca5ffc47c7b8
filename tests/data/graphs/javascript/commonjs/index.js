#!/usr/bin/env node
const api = require('./lib/api');

function main(argv) {
  api.fetch(argv[2]);
  api.describe(argv[3]);
  console.log(api.missing);
}

main(process.argv);
