import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-EYAKDFSG.js";import"./chunk-WZADPM4R.js";import"./chunk-B6ZCMRJY.js";import"./chunk-BMREWSWA.js";import"./chunk-STMYT2RX.js";import"./chunk-SKUA5T56.js";import"./chunk-AGOBB62V.js";import"./chunk-YS6ZMVJH.js";import"./chunk-XBPPTJU7.js";export{a as action};
