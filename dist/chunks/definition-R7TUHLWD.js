import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-75RFGKOQ.js";import"./chunk-KMJE2LB4.js";import"./chunk-SZE6WYQN.js";import"./chunk-B6BW7DEO.js";import"./chunk-B6ZCMRJY.js";import"./chunk-563GI2N3.js";import"./chunk-PCXE5LLD.js";import"./chunk-SKUA5T56.js";import"./chunk-AGOBB62V.js";import"./chunk-XTI5FTON.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
