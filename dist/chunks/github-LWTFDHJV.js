import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{c as a,d as b}from"./chunk-TIKZEN65.js";import"./chunk-RAPHUKRT.js";import"./chunk-4NQWUBIR.js";import"./chunk-XBPPTJU7.js";export{a as context,b as getOctokit};
