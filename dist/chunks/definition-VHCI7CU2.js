import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-UIKEVARD.js";import"./chunk-EDHNESXE.js";import"./chunk-V7PCNUZ4.js";import"./chunk-Q6DOAXLF.js";import"./chunk-BMREWSWA.js";import"./chunk-STMYT2RX.js";import"./chunk-SKUA5T56.js";import"./chunk-AGOBB62V.js";import"./chunk-YS6ZMVJH.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
