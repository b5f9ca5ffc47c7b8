// Functions assigned to properties of a file-level object, and to a class or function.
var app = exports = module.exports = {};

app.init = function init() {
  this.defaultConfiguration();
};

app.defaultConfiguration = function defaultConfiguration() {
  this.set("env");
};

app.set = function set(setting) {
  return setting;
};

app.render = function render(name) {
  const done = () => this.set(name);
  app.set(name);
  return done;
};

function User() {}

User.count = function count() {
  return 0;
};

User.find = function () {
  return User.count();
};

class Model {}

Model.create = function create() {
  return new Model();
};

function report() {
  return User.count() + Model.create();
}

// A parameter named like the object is not the object.
function other(app) {
  app.set(1);
}
