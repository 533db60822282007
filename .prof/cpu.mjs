import { Session } from "node:inspector";
import fs from "node:fs";
const session = new Session();
session.connect();
session.post("Profiler.enable", () =>
  session.post("Profiler.setSamplingInterval", { interval: 200 }, () =>
  session.post("Profiler.start", () => {
    setTimeout(() => {
      session.post("Profiler.stop", (err, { profile }) => {
        fs.writeFileSync(process.env.PROF_OUT, JSON.stringify(profile));
      });
    }, Number(process.env.PROF_SECONDS) * 1000).unref();
  })));
