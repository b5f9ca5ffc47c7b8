int api_call(void);
