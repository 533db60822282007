/** The app under test, and beside it the scripted model server and its control port. */
export const appPort = () => Number(process.env.E2E_PORT ?? 3100);
export const modelPort = () => appPort() + 1;
export const modelControlPort = () => appPort() + 2;
