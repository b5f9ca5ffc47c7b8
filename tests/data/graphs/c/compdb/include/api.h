/* Not on the include path compile_commands.json gives. */
int api_other(void);
