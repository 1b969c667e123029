// One owner for the tests and the launcher alike (scripts/free-port.mjs says why not listen(0)).
export { freePort } from '../../../scripts/free-port.mjs';
