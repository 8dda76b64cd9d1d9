import { runAnalysisBench } from '../bench/analysis.js';
const r = runAnalysisBench({ seconds: 4, print: false });
console.log(process.argv[2] ?? '', 'answers/cpu-s', r.answersPerSecond, 'wall', r.answersPerWallSecond);
