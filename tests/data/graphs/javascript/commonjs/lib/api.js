const Store = require('./store');
const { log } = require('./helpers.cjs');
const helpers = require('./helpers.cjs');

module.exports = {
  fetch(key) {
    const store = new Store('main');
    log(key);
    return store.get(key);
  },
  describe: (key) => helpers.format(key),
  other: require('./store'),
};
