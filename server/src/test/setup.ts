import { useCheapHashingInTests } from '../modules/auth/passwords';

// Every test file of the server projects and the journeys: the server they build hashes passwords
// cheaply (passwords.test.ts checks that production keeps OWASP's cost).
useCheapHashingInTests();
