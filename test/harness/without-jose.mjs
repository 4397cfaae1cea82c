// Loaded with `node --import` into a gate under test: the process resolves no `jose`, as an
// install that left the gate's sign-in support out would (the gate must still start).
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === 'jose' || specifier.startsWith('jose/')) {
    const error = new Error("Cannot find package 'jose' (left out of this install)");
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
