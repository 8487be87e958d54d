import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-OJFU6LPV.js";import"./chunk-WZADPM4R.js";import"./chunk-UCXDIBA5.js";import"./chunk-BMLWBR3I.js";import"./chunk-REMYMLTQ.js";import"./chunk-AGOBB62V.js";import"./chunk-XBPPTJU7.js";export{a as action};
