exports.log = function (msg) {
  return format(msg);
};

function format(msg) {
  return '[' + msg + ']';
}

module.exports.format = format;
