import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-ZJNAKYPU.js";import"./chunk-WZADPM4R.js";import"./chunk-MPK6L5VR.js";import"./chunk-CCUMUQ2Z.js";import"./chunk-SKUA5T56.js";import"./chunk-AGOBB62V.js";import"./chunk-YS6ZMVJH.js";import"./chunk-XBPPTJU7.js";export{a as action};
