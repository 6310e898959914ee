// Registered with --import: makes `keytar` unresolvable in this process, as on a machine where
// npm left the optional dependency out because its native part could not be built.
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === 'keytar' || specifier.startsWith('keytar/')) {
    const error = new Error("Cannot find package 'keytar' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
