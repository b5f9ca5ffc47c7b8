import * as z from "zod";
import { number } from "zod/v4";
import { en } from "zod/locales/en";
import { hidden } from "zod/src/internal";
import { help } from "helpers";

export function check(): void {
  z.string();
  number();
  en();
  hidden();
  help();
}
