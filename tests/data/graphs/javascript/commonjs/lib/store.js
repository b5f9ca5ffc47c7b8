'use strict';

function Store(name) {
  this.name = name;
}

Store.prototype.get = function (key) {
  return this.read(key);
};

Store.prototype.read = function (key) {
  return key;
};

module.exports = Store;
